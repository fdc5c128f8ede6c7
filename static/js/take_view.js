// The annotate view's "Lines to take": the active candidate's lines the gold lacks, region by region
// (takes.js), each a button that takes it; a run's and a region's replacement are a button each. Tab moves
// through them, Enter takes. What a take does to the gold goes through `apply`, as a block click's change.
// A line whose content the gold already holds in another form is marked "already in the gold", and taking
// it (alone, in a run or in a region's replacement) asks first (content_marks.js).
import { declined, markContent } from "./content_marks.js";
import { plural, short } from "./say.js";
import { regions, replaceRegion, takeLines } from "./takes.js";

function lineButton(label, className, run) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = className;
  button.textContent = label;
  button.addEventListener("click", run);
  return button;
}

// The first line where two versions of the gold differ: where a take landed.
const firstChange = (before, after) => {
  const at = after.findIndex((line, i) => line !== before[i]);
  return at < 0 ? after.length : at;
};

// `box`: the element the list goes in. `now()` gives {candidate ({name, lines, texts (each line's Markdown
// lines)}), gold (lines), page (the page's block texts), pinned, markdown (takes.js's options: plain, apart,
// unit)}; `apply(lines, at, count, message, pinned)` makes the change; `count(action)` counts it ("take",
// "take_run" or "replace_region": effort.js). A line is shown as its Markdown.
export function takeView(box, now, apply, count = () => {}) {
  const ask = (question) => box.ownerDocument.defaultView.confirm(question);
  function take(ks) {
    const { candidate, gold, page, pinned, markdown } = now();
    if (declined(ks.map((k) => candidate.lines[k]), gold.join("\n"), "the gold", ask)) return;
    const { lines, changed, pinned: pins } = takeLines(gold, candidate.lines, page, ks, pinned,
      { ...markdown, texts: candidate.texts });
    if (!changed) return;
    count(ks.length > 1 ? "take_run" : "take");
    apply(lines, firstChange(gold, lines), changed, changed === 1
      ? `Took “${short(candidate.lines[ks[0]])}” from ${candidate.name}.`
      : `Took ${changed} lines from ${candidate.name}.`, pins);
    show();
  }

  function replace(region) {
    const { candidate, gold, pinned } = now();
    const [from, to] = region.candidate, [goldFrom, goldTo] = region.gold;
    const rest = [...gold.slice(0, goldFrom), ...gold.slice(goldTo)].join("\n");
    if (declined(candidate.lines.slice(from, to), rest, "the gold", ask)) return;
    const { lines, at, count: put } = replaceRegion(gold, candidate.lines, region, candidate.texts);
    count("replace_region");
    apply(lines, at, put, `Replaced ${plural(goldTo - goldFrom, "line")} of the gold with ` +
      `${candidate.name}'s ${plural(to - from, "line")}.`, pinned);
    show();
  }

  function show() {
    const { candidate, gold, markdown } = now();
    if (!candidate) return;
    const focused = [...box.querySelectorAll("button")].indexOf(box.ownerDocument.activeElement);
    box.replaceChildren();
    const found = regions(markdown?.plain ? markdown.plain(gold) : gold, candidate.lines);
    if (!found.length) {
      box.append(`Every line of ${candidate.name} is in the gold.`);
      return;
    }
    for (const region of found) {
      const part = box.ownerDocument.createElement("div");
      part.className = "take-region";
      if (region.before) {
        const context = box.ownerDocument.createElement("p");
        context.className = "take-context";
        context.textContent = `after “${short(region.before)}”`;
        part.append(context);
      }
      const [from, to] = region.candidate;
      for (let k = from; k < to; k++) {
        const button = lineButton(candidate.texts?.[k].join("\n") ?? candidate.lines[k], "take-line", () => take([k]));
        button.dataset.text = candidate.lines[k];
        part.append(button);
      }
      if (to - from > 1) {
        const ks = Array.from({ length: to - from }, (_, i) => from + i);
        part.append(lineButton(`Take these ${to - from} lines`, "take-run", () => take(ks)));
      }
      const [goldFrom, goldTo] = region.gold;
      if (goldTo > goldFrom) {
        part.append(lineButton(`Replace the gold's ${plural(goldTo - goldFrom, "line")} here with these`,
          "take-replace", () => replace(region)));
      }
      box.append(part);
    }
    markContent(box.querySelectorAll("button.take-line"), gold.join("\n"), "the gold");
    const buttons = box.querySelectorAll("button");
    if (focused >= 0 && buttons.length) buttons[Math.min(focused, buttons.length - 1)].focus();
  }

  return { show };
}
