// A page's history: the word diff between the two chosen revisions (A -> B), and each line of B with its
// origin (the provenance the revision recorded; webapp/annotation/provenance.py).
import { diff, render, words } from "./worddiff.js";

// Each line of the revision as a list item marked with its origin ("not recorded" without provenance): the
// lines of the view its author edited (its Markdown when its text is derived from it), blank ones left out.
export function showOrigins(revision, list) {
  list.replaceChildren();
  const origins = revision.origins || [];
  const edited = revision.text_source === "derived" ? revision.markdown : revision.text;
  edited.split("\n").forEach((line, at) => {
    if (!line.trim() && revision.text_source === "derived") return;
    const item = list.ownerDocument.createElement("li");
    const origin = list.ownerDocument.createElement("span");
    origin.className = "line-origin";
    origin.textContent = origins[at] ?? "not recorded";
    item.dataset.origin = origins[at] ?? "";
    item.append(origin, " ", line);
    list.append(item);
  });
}

const source = document.getElementById("revisions");
if (source) {
  const revisions = new Map(JSON.parse(source.textContent).map((r) => [String(r.id), r]));
  const chosen = (name) => revisions.get(document.querySelector(`input[name="${name}"]:checked`)?.value);
  const show = () => {
    const a = chosen("a"), b = chosen("b");
    if (a && b) render(diff(words(a.text), words(b.text)), document.getElementById("history-diff"));
    if (b) showOrigins(b, document.getElementById("line-origins"));
  };
  document.querySelectorAll('input[name="a"], input[name="b"]').forEach((input) => input.addEventListener("change", show));
  show();
}
