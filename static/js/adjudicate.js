// The adjudication view: the annotators' texts side by side, each one's word diff from the first, and the
// result. "Take" puts a whole text (and its kind) in the result; a block pressed is added to the result
// at its place (the page's order of blocks, then the annotators'), or taken out when it is there already.
import { normalise, toggleLine } from "./blocks.js";
import { diff, render, words } from "./worddiff.js";

const { annotations, pageLines } = JSON.parse(document.getElementById("adjudication-data").textContent);
const result = document.getElementById("result-text");
const kind = document.getElementById("result-kind");
const status = document.getElementById("result-status");
const snippets = document.getElementById("result-snippets");

function showSnippets() {
  const value = JSON.parse(snippets.value);
  const list = (key) => (value[key] || []).join(" · ") || "none";
  document.getElementById("result-snippets-said").textContent =
    `Snippets of the result: must include ${list("with")}; must exclude ${list("without")}.`;
}

const linesOf = (text) => text.split("\n").map(normalise).filter((line) => line);

// One order over the page's blocks and every annotator's: the page's visible text in its order, then each
// text's blocks, a block new to the order (edited, not on the page) right after the block preceding it
// in its text.
export function mergedOrder(texts, page = []) {
  const merged = [...new Set(page.map(normalise).filter((line) => line))];
  for (const text of texts) {
    let at = -1;
    for (const line of linesOf(text)) {
      const found = merged.indexOf(line);
      if (found >= 0) { at = found; continue; }
      merged.splice(at + 1, 0, line);
      at += 1;
    }
  }
  return new Map(merged.map((line, i) => [line, i]));
}

const order = mergedOrder(annotations.map((a) => a.text), pageLines);

function resultLines() {
  return result.value.split("\n").filter((line) => line.trim());
}

function markTaken() {
  const taken = new Set(resultLines().map(normalise));
  document.querySelectorAll(".lines button").forEach((button) => {
    button.setAttribute("aria-pressed", String(taken.has(button.dataset.line)));
  });
}

document.querySelectorAll(".annotation").forEach((section) => {
  const a = annotations[Number(section.dataset.index)];
  const list = section.querySelector(".lines");
  for (const line of linesOf(a.text)) {
    const item = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.className = "block-line";
    button.dataset.line = line;
    button.textContent = line;
    button.addEventListener("click", () => {
      result.value = toggleLine(resultLines(), line, order).join("\n");
      markTaken();
    });
    item.append(button);
    list.append(item);
  }
  section.querySelector(".take-all").addEventListener("click", () => {
    result.value = a.text;
    kind.value = a.kind;
    status.value = a.status;
    snippets.value = JSON.stringify(a.snippets || { with: [], without: [] });
    showSnippets();
    markTaken();
  });
  const pair = section.querySelector(".pair-diff");
  if (pair) render(diff(words(annotations[0].text), words(a.text)), pair);
});

result.addEventListener("input", markTaken);
document.addEventListener("keydown", (event) => {
  if ((event.ctrlKey || event.metaKey) && event.key === "s") {
    event.preventDefault();
    document.getElementById("result-form").requestSubmit();
  }
});
showSnippets();
markTaken();
