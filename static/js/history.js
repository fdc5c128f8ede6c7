// A page's history: the word diff between the two chosen revisions (A -> B).
import { diff, render, words } from "./worddiff.js";

const source = document.getElementById("revisions");
if (source) {
  const revisions = new Map(JSON.parse(source.textContent).map((r) => [String(r.id), r]));
  const chosen = (name) => revisions.get(document.querySelector(`input[name="${name}"]:checked`)?.value);
  const show = () => {
    const a = chosen("a"), b = chosen("b");
    if (a && b) render(diff(words(a.text), words(b.text)), document.getElementById("history-diff"));
  };
  document.querySelectorAll('input[name="a"], input[name="b"]').forEach((input) => input.addEventListener("change", show));
  show();
}
