// Head-to-head: each listed page's two texts as a word diff (A's words struck out, B's inserted).
import { diff, render, words } from "./worddiff.js";

const data = document.getElementById("compare-data");
if (data) {
  for (const change of JSON.parse(data.textContent)) {
    const box = document.querySelector(`.pair-diff[data-page="${change.page_id}"]`);
    if (box) render(diff(words(change.text_a), words(change.text_b)), box);
  }
}
