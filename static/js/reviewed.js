// The reviewed list: each adjudicated page's gold against the annotator's own text, as a word diff.
import { diff, render, words } from "./worddiff.js";

const mine = document.getElementById("reviewed-data");
const gold = document.getElementById("reviewed-gold");
if (mine && gold) {
  const texts = JSON.parse(mine.textContent), golds = JSON.parse(gold.textContent);
  document.querySelectorAll(".reviewed-diff").forEach((box) => {
    const i = Number(box.dataset.index);
    render(diff(words(texts[i]), words(golds[i])), box);
  });
}
