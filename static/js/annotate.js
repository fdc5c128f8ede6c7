// The annotate view: the saved page (page_blocks.js), the candidates (candidate_pane.js, their lines to take:
// take_view.js), the gold editor holding the gold's Markdown (gold_editor.js, its preview: preview.js) with
// drafts (gold_drafts.js), saves that never lose anything (gold_save.js), notices (notices.js), snippets
// (snippet_picks.js), and the keyboard. This module holds the view's state and wires the parts together.
import { dom } from "./blocks.js";
import { candidateOf, candidatePane } from "./candidate_pane.js";
import { clockText, effortCounter, trackActivity } from "./effort.js";
import { goldDrafts } from "./gold_drafts.js";
import { goldEditor } from "./gold_editor.js";
import { goldSaver } from "./gold_save.js";
import { guidelinePanel } from "./guideline.js";
import { helpDialog } from "./help.js";
import { bindShortcuts } from "./keys.js";
import { apart, plainLines, unitLength } from "./markdown_lines.js";
import { debounce } from "./net.js";
import { noticeBoard } from "./notices.js";
import { pageVariants } from "./page_variants.js";
import { originTracker } from "./origins.js";
import { metadataFields } from "./metadata_fields.js";
import { pageBlocks } from "./page_blocks.js";
import { TYPE_KEYS, pageTypeShortcuts } from "./page_types.js";
import { markdownPreview } from "./preview.js";
import { plural } from "./say.js";
import { snippetPicks } from "./snippet_picks.js";
import { snippetEditor } from "./snippets.js";
import { tabKeys } from "./tab_keys.js";
import { takeView } from "./take_view.js";

const data = JSON.parse(document.getElementById("page-data").textContent);
const $ = (id) => document.getElementById(id);
const editor = $("editor"), pageType = $("type"), status = $("status");
const guideline = guidelinePanel($("guideline-panel"), pageType);
const tabs = [...document.querySelectorAll("#tabs .tab")];
const candidates = data.candidates.map(candidateOf);
const snippets = snippetEditor({ with: $("snippets-with"), without: $("snippets-without") }, data.snippets,
  () => afterEdit());

const state = {
  version: data.editor.version,
  saved: { text: data.editor.text, type: data.editor.type, status: data.editor.status, snippets: snippets.value() },
  pending: null, // {id, body} of the save in flight or waiting for a retry
  frame: null,
  pinned: new Set(), // the page's blocks clicked or taken into the gold: the copies chosen (align.js)
  prefill: data.editor.start.prefill, // what the editor started from, for the provenance a save records
};
// Where each line of the editor came from (origins.js), for the provenance a save records.
const origins = originTracker(data.editor.text, data.editor.start.lines);

// The effort sent with each save (effort.js), and the annotator's pace beside the save button.
const effort = effortCounter({ idleSeconds: data.effort.idleSeconds, text: editor.value });
const activity = trackActivity(effort, window, dom.on);
const byTool = (change) => effort.tool(() => editor.value, change);
function showPace() {
  const { savedSeconds, medianSeconds, pages } = data.effort;
  $("pace").textContent = `this page ${clockText(savedSeconds + effort.seconds())}` +
    (pages ? ` · your median ${clockText(medianSeconds)} over ${plural(pages, "page")}` : "");
}

function setSaveState(text, error = false) {
  $("save-state").textContent = text;
  $("save-state").classList.toggle("error", error);
}

// The parts every module of the view shares.
const view = {
  extendPayload: (body) => body, // what other parts of the view add to a save (set below)
  data, $, editor, pageType, status, snippets, state, origins, effort, activity, byTool, setSaveState,
  notices: noticeBoard($("notices"), editor),
  text: goldEditor({ editor, byTool, origins }),
  provenance: () => ({ prefill: state.prefill, lines: origins.of(editor.value) }),
  afterEdit: () => afterEdit(),
  onFrameDocument: (doc) => picks.watch(doc, dom.on),
};
const drafts = goldDrafts(view);
const saver = goldSaver(view, drafts);
const page = pageBlocks(view, (event) => onKey(event));
const picks = snippetPicks(view, page.frame);

// --- candidates and their lines to take ----------------------------------------------------------------
const pane = candidatePane({ $, tabs, editor, candidates, onShow: () => { if (!$("lines").hidden) takes.show(); } });

function useCandidate() {
  const candidate = pane.active();
  if (!candidate) return;
  const before = view.text.replaceFrom(`candidate:${candidate.name}`, candidate.markdown);
  effort.count("use_candidate");
  view.notices.undoNotice(`Replaced the text with ${candidate.name}'s.`, before, "replaced",
    () => view.text.replaceText(before), "Undo");
}

const takes = takeView($("lines"), () => ({
  candidate: pane.active(), gold: view.text.lines(), page: page.pageTexts(), pinned: state.pinned,
  markdown: { plain: plainLines, apart, unit: unitLength },
}), (lines, at, count, message, pinned) => {
  const before = state.pinned;
  state.pinned = pinned;
  page.changeGold(lines, at, count, message, before, `candidate:${pane.active().name}`);
}, (action) => effort.count(action));

function showLinesView(on = $("lines").hidden) {
  $("lines").hidden = !on;
  $("diff").hidden = on;
  document.querySelector(".pane-candidates .legend").hidden = on;
  $("show-lines").setAttribute("aria-pressed", String(on));
  if (on) takes.show();
}

// The lines view, with the focus on its first line to take (or the next one when already in it).
function goToLines() {
  showLinesView(true);
  const buttons = [...$("lines").querySelectorAll("button.take-line")];
  const at = buttons.indexOf(document.activeElement);
  (buttons[at + 1] ?? buttons[0])?.focus();
}

// --- wiring -----------------------------------------------------------------------------------------
const startPageType = pageType.value;
const refreshSoon = debounce(() => { pane.refresh(); page.highlight(); }, 200);
const draftSoon = debounce(drafts.keep, 300);

function afterEdit() {
  if (pageType.value !== startPageType) $("type-signal")?.remove(); // it explains a type no longer chosen
  guideline.follow();
  drafts.showDirty();
  refreshSoon();
  draftSoon();
}

editor.addEventListener("input", () => {
  origins.change(editor.value, view.text.arriving());
  afterEdit();
});
// A dropdown changed gives the focus back, so the next key is a shortcut again (not a choice in the list),
// unless the change came from the keyboard on the dropdown itself (arrow keys).
for (const select of [pageType, status]) {
  let byKeyboard = false;
  select.addEventListener("keydown", () => { byKeyboard = true; });
  select.addEventListener("pointerdown", () => { byKeyboard = false; });
  select.addEventListener("change", () => {
    afterEdit();
    if (!byKeyboard) select.blur();
  });
}
$("save").addEventListener("click", saver.save);
$("use-candidate").addEventListener("click", useCandidate);
$("show-lines").addEventListener("click", () => showLinesView());
tabs.forEach((tab, index) => tab.addEventListener("click", () => pane.select(index)));
const pickTab = tabKeys(() => candidates.length, pane.select);
window.addEventListener("pagehide", drafts.keep);
$("guideline-button").addEventListener("click", () => guideline.toggle());

function setPageType(value) {
  pageType.value = value;
  afterEdit();
}

// Moving to another page saves unsaved changes first, and moves only when the save succeeded.
let leaving = false;
async function go(id) {
  if (drafts.dirty()) {
    setSaveState("Saving before moving on…");
    if (!(await saver.save())) {
      view.notices.notice("Not moved: your changes are not saved yet (see below). Save, or move again once saved.", null, "move");
      return;
    }
  }
  drafts.keep();
  leaving = true;
  window.location.href = $(id).href;
}
async function doneAndNext() {
  if (await saver.setStatusAndSave("done")) go("next");
}
for (const id of ["next", "prev"]) {
  $(id).addEventListener("click", (event) => { event.preventDefault(); go(id); });
}
// Leaving otherwise (a link, a reload, closing the tab) with unsaved changes asks; the draft stays anyway.
window.addEventListener("beforeunload", (event) => {
  if (leaving || !drafts.dirty()) return;
  drafts.keep();
  event.preventDefault();
  event.returnValue = "";
});

// Leave the editor, a text field or the saved page: the focus goes back to this page, so keys are shortcuts.
function leaveField() {
  if (help.isOpen()) { help.toggle(false); return; }
  const active = document.activeElement;
  if (active && active !== document.body) active.blur();
}
const plainTarget = (event) => !["BUTTON", "A", "SELECT", "SUMMARY", "INPUT"].includes(event.target?.tagName) ||
  event.target.ownerDocument !== document;
const typeShortcuts = pageTypeShortcuts(pageType.options, setPageType);
for (const option of pageType.options) if (TYPE_KEYS[option.value]) option.textContent += ` (${TYPE_KEYS[option.value]})`;

const preview = markdownPreview({ editor, box: $("preview"), button: $("preview-toggle"), url: data.previewUrl });
$("preview-toggle").addEventListener("click", () => preview.toggle());

const SHORTCUTS = [
  { keys: ["n"], label: "next page in the queue (saves first)", run: () => go("next") },
  { keys: ["p"], label: "previous page in the queue (saves first)", run: () => go("prev") },
  { keys: ["D"], label: "done and next: mark done, save, go to the next page", run: doneAndNext },
  { keys: ["Enter"], ctrl: true, whileTyping: true, label: "done and next (also while typing)", run: doneAndNext },
  { keys: ["Enter"], label: "go into the editor", when: plainTarget, run: () => editor.focus() },
  { keys: ["Escape"], whileTyping: true, always: true, label: "leave the editor, a field or the saved page; close this help", run: leaveField },
  { keys: ["f"], label: "go to the saved page (arrow keys scroll it)", run: () => page.frame.focus() },
  ...pageVariants(page.frame),
  { keys: ["c"], label: "go to the candidate's diff, or its lines to take when shown (arrow keys scroll it)",
    run: () => ($("lines").hidden ? $("diff") : $("lines")).focus() },
  { keys: ["1", "2", "3", "4", "5", "6", "7", "8", "9", "0"], label: "show candidate 1–9, 0 the tenth; two digits typed quickly the others (1 2: the twelfth)", run: (e) => pickTab(e.key) },
  { keys: ["u"], label: "use this candidate", run: useCandidate },
  { keys: ["y"], label: "the candidate's lines the gold lacks: go to the next one (Enter takes it, Tab reaches its run and region)", run: goToLines },
  { keys: ["]"], label: "point at the next block of the page", run: () => page.stepBlock(1) },
  { keys: ["["], label: "point at the previous block of the page", run: () => page.stepBlock(-1) },
  { keys: ["."], label: "point at the next block of the page that the gold lacks", run: () => page.stepBlock(1, true) },
  { keys: ["t"], label: "take the pointed block (or the outlined container) into the gold, or take it out", run: () => page.actOnPointed(false) },
  { keys: ["T"], label: "take or take out every block from the last one acted on to the pointed one (as Shift+click)", run: () => page.actOnPointed(true) },
  { keys: ["+"], label: "widen the pointed block to its container, and again to the next one up (outlined)", run: () => page.widenBlock(true) },
  { keys: ["-"], label: "narrow the outline back", run: () => page.widenBlock(false) },
  { keys: ["b"], label: "take out every line repeated on this site's pages (boilerplate)", run: page.dropRepeated },
  { keys: ["z"], ctrl: true, label: "undo the last change to the gold text (in the editor: the browser's undo)", run: () => view.text.undoEdit("undo") },
  { keys: ["z"], ctrl: true, shift: true, label: "redo", run: () => view.text.undoEdit("redo") },
  { keys: ["s"], ctrl: true, whileTyping: true, label: "save (also while typing)", run: saver.save },
  { keys: ["d"], label: "mark done and save", run: () => saver.setStatusAndSave("done") },
  { keys: ["s"], label: "skip: mark skipped and save", run: () => saver.setStatusAndSave("skipped") },
  ...typeShortcuts,
  { keys: ["i"], label: "add the selected text as a must-include snippet", run: () => picks.add("with") },
  { keys: ["e"], label: "add the selected text as a must-exclude snippet", run: () => picks.add("without") },
  { keys: ["q"], label: "preview: show the gold's Markdown rendered, or edit it again", run: () => preview.toggle() },
  { keys: ["G"], label: "show or hide the page type's guideline beside the editor (it follows the type)", run: () => guideline.toggle() },
  { keys: ["?"], always: true, label: "show or hide this help", run: () => help.toggle() },
];
const help = helpDialog(SHORTCUTS);
const onKey = bindShortcuts(SHORTCUTS, help.isOpen);
const metadata = metadataFields(help); // the title, authors and date above the gold text
view.extendPayload = (body) => metadata.into(body); // a save sends them too (gold_save.js)

drafts.restore();
// A link such as /pages/7#candidate=density (from the leaderboard's drill-down) opens that candidate.
const wanted = new URLSearchParams(window.location.hash.slice(1)).get("candidate");
pane.select(Math.max(0, candidates.findIndex((c) => c.name === wanted)));
page.start();
drafts.showDirty();
showPace();
setInterval(showPace, 1000);
document.body.dataset.ready = "yes";
