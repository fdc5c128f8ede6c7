// The candidates' pane: one tab per extractor with its live F1 against the gold, the active candidate's
// verdict and saved scores, and its word diff against the gold. A candidate is scored on its text (as the
// metrics score it) and shown, diffed and taken as its Markdown, so that a heading lost or a table
// flattened shows as a change; a candidate that gives text only is its lines, escaped as Markdown.
import { escaped, markdownUnits, plainLines } from "./markdown_lines.js";
import { candidateLines } from "./takes.js";
import { bag, scores } from "./tokens.js";
import { diff, render, words } from "./worddiff.js";

export const percent = (x) => (x === null ? "—" : `${(100 * x).toFixed(1)}%`); // null: the page cannot give it

// A candidate as the view uses it: `units` (markdown_lines.js), `lines` (each unit's plain text, what the
// lines to take align), `texts` (each unit's Markdown lines), `markdown` (what "use" puts in the editor).
export function candidateOf(candidate) {
  const units = candidate.markdown ? markdownUnits(candidate.markdown)
    : candidateLines(candidate.text).map((line) => ({ lines: [escaped(line)], plain: line }));
  const markdown = candidate.markdown || units.map((unit) => unit.lines[0]).join("\n");
  return { ...candidate, markdown, bag: bag(candidate.text), words: words(markdown),
    lines: units.map((unit) => unit.plain), texts: units.map((unit) => unit.lines) };
}

// `$`: the page's elements by id; `tabs`: the tab buttons; `editor`: the gold editor; `onShow()`: called
// after the diff is drawn (the lines to take follow it).
export function candidatePane({ $, tabs, editor, candidates, onShow }) {
  let active = 0;

  function showInfo(candidate) {
    const info = $("candidate-info");
    info.replaceChildren();
    const verdict = candidate.accepted ? "accepted by the guard" : `rejected by the guard: ${candidate.guard_reason || "?"}`;
    const duration = document.createElement("span");
    duration.className = "duration";
    duration.textContent = `${candidate.duration_ms} ms`;
    info.append(`${candidate.name}: ${verdict}; `, duration);
    if (candidate.incomplete) info.append("; incomplete (document truncated)");
    const saved = Object.entries(candidate.saved_scores || {});
    if (saved.length) {
      const line = document.createElement("div");
      line.className = "saved-scores";
      line.textContent = "against the saved gold: " +
        saved.map(([metric, s]) => `${metric} P ${percent(s.precision)} R ${percent(s.recall)} F1 ${percent(s.f1)}`).join(" · ");
      info.append(line);
    }
    if (candidate.error) {
      const error = document.createElement("span");
      error.className = "error";
      error.textContent = ` error: ${candidate.error}`;
      info.append(error);
    }
  }

  function refresh() {
    if (!candidates.length) return;
    const lines = editor.value ? editor.value.split("\n") : [];
    const goldBag = bag(plainLines(lines).filter(Boolean).join("\n")); // the metrics read the plain text
    candidates.forEach((candidate, index) => {
      const s = scores(candidate.bag, goldBag);
      tabs[index].querySelector(".tab-f1").textContent = `F1 ${percent(s.f1)}`;
      if (index === active) {
        $("scores").textContent = `P ${percent(s.precision)} · R ${percent(s.recall)} · F1 ${percent(s.f1)}`;
      }
    });
    render(diff(words(editor.value), candidates[active].words), $("diff"));
    onShow();
  }

  function select(index) {
    if (index < 0 || index >= candidates.length) return;
    active = index;
    tabs.forEach((tab, i) => {
      tab.classList.toggle("active", i === index);
      tab.setAttribute("aria-selected", String(i === index));
    });
    showInfo(candidates[index]);
    refresh();
    reveal(tabs[index]); // once the F1 figures (which set the tabs' widths) are in
  }

  // The tabs are one row that scrolls: a tab is brought into the row's view by scrolling the row alone
  // (scrollIntoView would also scroll the panes around it, which clip their overflow, shifting the view).
  function reveal(tab) {
    const row = tab.parentElement.getBoundingClientRect(), at = tab.getBoundingClientRect();
    if (at.left < row.left) tab.parentElement.scrollLeft -= row.left - at.left;
    else if (at.right > row.right) tab.parentElement.scrollLeft += at.right - row.right;
  }

  return { refresh, select, active: () => candidates[active] };
}
