// The adjudication view: the annotators' texts side by side, each one's word diff from the first, and the
// result. "Take" puts a whole text (and its type) in the result; a block pressed is added to the result
// at its place (the page's order of blocks, then the annotators'), or its own line taken out when it is
// there already. Placing works as in the annotate view (align.js: lines matched by order, not by text).
// The result starts from the lines all annotators agree on (webapp/annotation/consensus.py); the disputed
// lines are listed beside it with who has each, taken in at their place or dropped with one press. The
// saved page is shown in the sandboxed frame (no script of it runs) with each annotator's blocks outlined.
// Each line's origin is tracked (origins.js: "consensus", "annotator:NAME", typed or edited) and saved with
// the result as its provenance.
import { NONE, align, merge, toggleBlock } from "./align.js";
import { attachBlocks, dom, normalise } from "./blocks.js";
import { declined, markContent } from "./content_marks.js";
import { effortCounter, trackActivity } from "./effort.js";
import { guidelinePanel } from "./guideline.js";
import { helpDialog } from "./help.js";
import { bindShortcuts } from "./keys.js";
import { originTracker } from "./origins.js";
import { diff, render, words } from "./worddiff.js";
import { apart, escaped, markdownUnits, plainLines, unitLength } from "./markdown_lines.js";

const { annotations, pageLines, blocks: rules, disputed, idleSeconds, start } =
  JSON.parse(document.getElementById("adjudication-data").textContent);
const result = document.getElementById("result-text");
const origins = originTracker(result.value, start.lines, start.prefill.source === "gold" ? "gold" : "consensus");

// The result's text set from an annotator's: its new lines are that annotator's.
function setResult(text, name) {
  result.value = text;
  origins.change(result.value, `annotator:${name}`);
}
const pageType = document.getElementById("result-type");
const status = document.getElementById("result-status");
const snippets = document.getElementById("result-snippets");
// The effort sent with the result (effort.js): takes are actions, typing in the result counts its words.
const effort = effortCounter({ idleSeconds, text: result.value });
const activity = trackActivity(effort, window, dom.on);
const take = (action, change) => {
  effort.count(action);
  effort.tool(() => result.value, change);
};
const guideline = guidelinePanel(document.getElementById("guideline-panel"), pageType);
document.getElementById("guideline-button").addEventListener("click", () => guideline.toggle());
// The view's keys, listed by `?` (help.js). The Tab, Ctrl+S and Esc rows are listed only: Tab and Esc are
// the browser's own (Esc closes a modal dialog), and Ctrl+S (or Cmd+S) is handled with the form below.
const SHORTCUTS = [
  { keys: ["G"], label: "show or hide the chosen type's guideline beside the view", run: () => guideline.toggle() },
  { keys: ["?"], always: true, label: "show or hide this help", run: () => help.toggle() },
];
const help = helpDialog([
  { keys: ["Tab"], label: "reach the annotators' blocks and the disputed lines; Enter presses one (takes it in or out)" },
  { keys: ["s"], ctrl: true, label: "save the result as gold (also while typing)" },
  { keys: ["Escape"], label: "close this help" },
  ...SHORTCUTS,
]);
const onKey = bindShortcuts(SHORTCUTS, help.isOpen);

function showSnippets() {
  const value = JSON.parse(snippets.value);
  const list = (key) => (value[key] || []).join(" · ") || "none";
  document.getElementById("result-snippets-said").textContent =
    `Snippets of the result: must include ${list("with")}; must exclude ${list("without")}.`;
}

const linesOf = (text) => text.split("\n").map(normalise).filter((line) => line);
// An annotation's blocks as Markdown units (markdown_lines.js; as webapp/annotation/consensus.py reads
// them): each {lines (its Markdown), plain (its text, what is aligned)}; one given as text only, its lines.
const unitsOf = (a) => (a.markdown ? markdownUnits(a.markdown)
  : linesOf(a.text).map((line) => ({ lines: [escaped(line)], plain: line }))).filter((unit) => unit.plain);
const MARKDOWN = { plain: plainLines, apart, unit: unitLength };
const units = annotations.map(unitsOf);

// One sequence over the page's blocks and every annotator's lines: the page's visible text in its order,
// then each text merged in (a line matched in order to one already there is that one; a line new to the
// sequence comes right after the one preceding it in its text). Returns {sequence, positions (per text,
// each of its lines' index in the sequence)}.
export function mergedSequence(texts, page = []) {
  let sequence = page.map(normalise).filter((line) => line);
  const placed = [];
  for (const text of texts) {
    const merged = merge(sequence, linesOf(text));
    placed.forEach((positions, i) => { placed[i] = positions.map((at) => merged.moved[at]); });
    sequence = merged.sequence;
    placed.push(merged.positions);
  }
  return { sequence, positions: placed };
}

const { sequence, positions } = mergedSequence(units.map((list) => list.map((unit) => unit.plain).join("\n")), pageLines);

// The result is Markdown: its lines as they are (a blank line keeps two blocks apart), aligned by their text.
function resultLines() {
  return result.value ? result.value.split("\n") : [];
}

// A block or disputed line is shown pressed when the result has it at its place: the result's lines matched
// to the sequence by order, so a line whose text is also elsewhere (an agreed "Read more", a heading
// repeated in the breadcrumb) is pressed only when the result holds that copy.
function markTaken() {
  const taken = new Set(align(plainLines(resultLines()), sequence).filter((at) => at !== NONE));
  document.querySelectorAll(".lines button, #disputed-lines button").forEach((button) => {
    button.setAttribute("aria-pressed", String(taken.has(Number(button.dataset.at))));
  });
  markContent(document.querySelectorAll(".lines button, #disputed-lines button"), result.value, "the result");
}
// A press that would take in a line whose content the result has in another form asks first.
const declinedTwice = (button, line) => button.getAttribute("aria-pressed") !== "true" &&
  declined([line], result.value, "the result", (question) => window.confirm(question));

document.querySelectorAll(".annotation").forEach((section) => {
  const index = Number(section.dataset.index);
  const a = annotations[index];
  const list = section.querySelector(".lines");
  units[index].forEach(({ lines: markdown, plain: line }, k) => {
    const item = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.className = "block-line";
    button.dataset.at = positions[index][k];
    button.dataset.text = line;
    button.textContent = markdown.join("\n");
    button.addEventListener("click", () => {
      if (declinedTwice(button, line)) return;
      take("take", () => setResult(toggleBlock(resultLines(), sequence, positions[index][k],
        { text: markdown, ...MARKDOWN }).lines.join("\n"), a.author));
      markTaken();
    });
    item.append(button);
    list.append(item);
  });
  section.querySelector(".take-all").addEventListener("click", () => {
    take("use_candidate", () => setResult(a.markdown || a.text, a.author));
    pageType.value = a.type;
    guideline.follow();
    status.value = a.status;
    snippets.value = JSON.stringify(a.snippets || { with: [], without: [] });
    showSnippets();
    markTaken();
  });
  const pair = section.querySelector(".pair-diff");
  if (pair) render(diff(words(annotations[0].markdown || annotations[0].text), words(a.markdown || a.text)), pair);
});

const byName = new Map(annotations.map((a, index) => [a.author, index]));
const disputedList = document.getElementById("disputed-lines");
disputed.forEach((line) => {
  const item = document.createElement("li");
  const button = document.createElement("button");
  button.type = "button";
  button.className = "block-line disputed-line";
  button.dataset.at = positions[byName.get(line.origin[0])][line.line];
  const text = document.createElement("span");
  text.textContent = line.text;
  const origin = document.createElement("small");
  origin.className = "origin";
  origin.textContent = `only ${line.origin.join(", ")} · after agreed line ${line.after}` +
    (line.form_only ? " · other form: the others have its content otherwise split or written" : "");
  button.append(text, " ", origin);
  const plain = plainLines(line.text.split("\n")).filter(Boolean).join(" ");
  button.dataset.text = plain;
  button.addEventListener("click", () => {
    if (declinedTwice(button, plain)) return;
    const at = Number(button.dataset.at);
    take("take", () => setResult(toggleBlock(resultLines(), sequence, at,
      { text: line.text.split("\n"), ...MARKDOWN }).lines.join("\n"), line.origin[0]));
    markTaken();
  });
  item.append(button);
  disputedList.append(item);
});

const frame = document.getElementById("frame");
const wired = new WeakSet();
function markFrame() {
  const doc = frame.contentDocument;
  if (!doc || dom.url(doc) === "about:blank" || wired.has(doc)) return;
  wired.add(doc);
  activity.watch(doc);
  for (const handler of [onKey, onSave]) dom.on(doc, "keydown", handler); // the keys work in the page too
  const noop = () => {};
  const page = attachBlocks(doc, { toggle: noop, range: noop, container: noop, cancel: noop }, rules);
  page.markAnnotators(units.map((list) => new Set(align(list.map((unit) => unit.plain), page.texts).filter((at) => at !== NONE))));
  frame.dataset.marked = "yes";
}
frame.addEventListener("load", markFrame);

result.addEventListener("input", () => {
  origins.change(result.value);
  markTaken();
});
document.getElementById("result-form").addEventListener("submit", () => {
  document.getElementById("result-effort").value = JSON.stringify(effort.snapshot(result.value));
  document.getElementById("result-provenance").value =
    JSON.stringify({ prefill: start.prefill, lines: origins.of(result.value) });
});
function onSave(event) {
  if ((event.ctrlKey || event.metaKey) && event.key === "s") {
    event.preventDefault();
    if (!help.isOpen()) document.getElementById("result-form").requestSubmit(); // the help is modal
  }
}
document.addEventListener("keydown", onSave);
showSnippets();
markTaken();
// The frame may have loaded before this module ran (then its load event has passed).
const loaded = frame.contentDocument;
if (loaded && dom.readyState(loaded) === "complete") markFrame();
document.body.dataset.ready = "yes"; // every handler is bound (the browser tests wait for it)
