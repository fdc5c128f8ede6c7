// The annotate view: candidate tabs with word diffs and live scores, blocks of the rendered page, the gold
// editor with drafts, saves that never lose anything (retries, conflicts), and the keyboard.
import { align, NONE, setBlocks, toggleBlock } from "./align.js";
import { attachBlocks, dom, normalise } from "./blocks.js";
import { clearDraft, loadDraft, storeDraft } from "./drafts.js";
import { clockText, effortCounter, trackActivity } from "./effort.js";
import { guidelinePanel } from "./guideline.js";
import { helpDialog } from "./help.js";
import { bindShortcuts } from "./keys.js";
import { TYPE_KEYS, pageTypeShortcuts } from "./page_types.js";
import { originTracker } from "./origins.js";
import { metadataFields } from "./metadata_fields.js";
import { LABELS, selectedText, snippetEditor } from "./snippets.js";
import { plural, short } from "./say.js";
import { tabKeys } from "./tab_keys.js";
import { takeView } from "./take_view.js";
import { candidateLines } from "./takes.js";
import { debounce, newSaveId, postJson } from "./net.js";
import { bag, scores } from "./tokens.js";
import { diff, render, words } from "./worddiff.js";

const data = JSON.parse(document.getElementById("page-data").textContent);
const $ = (id) => document.getElementById(id);
const editor = $("editor"), pageType = $("type"), status = $("status");
const guideline = guidelinePanel($("guideline-panel"), pageType);
const tabs = [...document.querySelectorAll("#tabs .tab")];
const candidates = data.candidates.map((c) => ({
  ...c, bag: bag(c.text), words: words(c.text), lines: candidateLines(c.text),
}));
const RETRY_MS = 3000;
const snippets = snippetEditor({ with: $("snippets-with"), without: $("snippets-without") }, data.snippets,
  () => afterEdit());

const state = {
  version: data.editor.version,
  saved: { text: data.editor.text, type: data.editor.type, status: data.editor.status, snippets: snippets.value() },
  active: 0,
  pending: null, // {id, body} of the save in flight or waiting for a retry
  frame: null,
  pinned: new Set(), // the page's blocks clicked or taken into the gold: the copies chosen (align.js)
  prefill: data.editor.start.prefill, // what the editor started from, for the provenance a save records
};
// Where each line of the editor came from (origins.js); `arriving` is the origin of the change being made
// from the page or a candidate (null: typing, undo, redo).
const origins = originTracker(data.editor.text, data.editor.start.lines);
let arriving = null;
const provenance = () => ({ prefill: state.prefill, lines: origins.of(editor.value) });

const percent = (x) => `${(100 * x).toFixed(1)}%`;

// The effort sent with each save (effort.js), and the annotator's pace beside the save button.
const effort = effortCounter({ idleSeconds: data.effort.idleSeconds, text: editor.value });
const activity = trackActivity(effort, window, dom.on);
const byTool = (change) => effort.tool(() => editor.value, change);
function showPace() {
  const { savedSeconds, medianSeconds, pages } = data.effort;
  $("pace").textContent = `this page ${clockText(savedSeconds + effort.seconds())}` +
    (pages ? ` · your median ${clockText(medianSeconds)} over ${plural(pages, "page")}` : "");
}

// A notice above the editor. One with a `key` replaces the earlier one with that key, and at most
// MAX_NOTICES stay (the oldest go), so notices never pile up; each can be closed.
const MAX_NOTICES = 3;

function notice(text, action, key) {
  const box = $("notices");
  if (key) box.querySelector(`.notice[data-key="${key}"]`)?.remove();
  const p = document.createElement("p");
  p.className = "notice";
  if (key) p.dataset.key = key;
  p.textContent = text + " ";
  if (action) {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = action.label;
    button.addEventListener("click", () => { action.run(); p.remove(); });
    p.append(button);
  }
  const close = document.createElement("button");
  close.type = "button";
  close.className = "notice-close";
  close.textContent = "×";
  close.setAttribute("aria-label", "close this notice");
  close.addEventListener("click", () => p.remove());
  p.append(close);
  box.append(p);
  const shown = box.querySelectorAll(".notice");
  for (let i = 0; i < shown.length - MAX_NOTICES; i++) shown[i].remove();
  box.scrollTop = box.scrollHeight; // the box scrolls past a few lines: the newest notice, with its Undo, shows
  return p;
}

// A notice of a change with its Undo, which takes the change back only while the editor still shows what the
// change made: once the text moves on (Ctrl+Z, another change, typing) the button goes. It restored the text
// from before the change whatever came since: after two Ctrl+Z, it did the first of them over again.
function undoNotice(message, before, key, label = "Undo (Ctrl+Z)") {
  const after = editor.value;
  const shown = notice(message, { label, run: () => replaceText(before) }, key);
  const button = shown.querySelector("button:not(.notice-close)");
  const moved = () => {
    if (editor.value === after) return;
    button.remove();
    editor.removeEventListener("input", moved);
  };
  editor.addEventListener("input", moved);
  return shown;
}

function setSaveState(text, error = false) {
  $("save-state").textContent = text;
  $("save-state").classList.toggle("error", error);
}

// --- candidates -------------------------------------------------------------------------------------
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

function refreshCandidates() {
  if (!candidates.length) return;
  const goldText = editor.value;
  const goldBag = bag(goldText);
  candidates.forEach((candidate, index) => {
    const s = scores(candidate.bag, goldBag);
    tabs[index].querySelector(".tab-f1").textContent = `F1 ${percent(s.f1)}`;
    if (index === state.active) {
      $("scores").textContent = `P ${percent(s.precision)} · R ${percent(s.recall)} · F1 ${percent(s.f1)}`;
    }
  });
  render(diff(words(goldText), candidates[state.active].words), $("diff"));
  if (!$("lines").hidden) showLines();
}

function selectTab(index) {
  if (index < 0 || index >= candidates.length) return;
  state.active = index;
  tabs.forEach((tab, i) => {
    tab.classList.toggle("active", i === index);
    tab.setAttribute("aria-selected", String(i === index));
  });
  tabs[index].scrollIntoView({ block: "nearest", inline: "nearest" }); // the tabs are one row that scrolls
  showInfo(candidates[index]);
  refreshCandidates();
}

// Replace the editor's text as one undoable edit (Ctrl+Z brings the old text back); `reveal` (a character
// offset) is scrolled into view and selected up to `revealEnd`. The focus goes back where it was.
function replaceText(text, reveal = null, revealEnd = reveal) {
  const before = editor.value;
  const had = document.activeElement;
  editor.focus();
  editor.select();
  byTool(() => {
    if (!document.execCommand("insertText", false, text) || editor.value !== text) {
      editor.value = text;
      editor.dispatchEvent(new Event("input"));
    }
  });
  if (reveal !== null) {
    editor.setSelectionRange(reveal, revealEnd);
    revealCaret(reveal);
  }
  giveBack(had);
  return before;
}

// Scroll the editor so that the character at `offset` is in view, measured on a copy laid out as it is.
function revealCaret(offset) {
  const copy = document.createElement("div");
  const style = getComputedStyle(editor);
  for (const name of ["font", "lineHeight", "padding", "border", "boxSizing", "letterSpacing", "tabSize"]) {
    copy.style[name] = style[name];
  }
  Object.assign(copy.style, { position: "absolute", visibility: "hidden", whiteSpace: "pre-wrap",
    overflowWrap: "break-word", width: `${editor.clientWidth}px`, top: "0", left: "-9999px" });
  const mark = document.createElement("span");
  mark.textContent = "\u200b";
  copy.append(editor.value.slice(0, offset), mark);
  document.body.append(copy);
  const top = mark.offsetTop;
  copy.remove();
  if (top < editor.scrollTop || top > editor.scrollTop + editor.clientHeight - 40) {
    editor.scrollTop = Math.max(0, top - editor.clientHeight / 3);
  }
}

// Give the focus back to what had it (the frame, a button), or to nothing.
function giveBack(had) {
  if (had && had !== document.body && had !== editor && had.isConnected) had.focus({ preventScroll: true });
  else if (had !== editor) editor.blur();
}

// Undo or redo the editor's last edit from anywhere outside a text field (in the editor the browser does it).
function undoEdit(command) {
  const had = document.activeElement;
  editor.focus();
  byTool(() => document.execCommand(command));
  giveBack(had);
}

// Replace the editor's text from the page or a candidate: the new lines' origin is `origin`.
function replaceFrom(origin, text, reveal = null, revealEnd = reveal) {
  arriving = origin;
  try {
    return replaceText(text, reveal, revealEnd);
  } finally {
    arriving = null;
    origins.change(editor.value, origin);
  }
}

function useCandidate() {
  const candidate = candidates[state.active];
  if (!candidate) return;
  const before = replaceFrom(`candidate:${candidate.name}`, candidate.text);
  effort.count("use_candidate");
  undoNotice(`Replaced the text with ${candidate.name}'s.`, before, "replaced", "Undo");
}

// --- drafts -----------------------------------------------------------------------------------------
function current() {
  return { text: editor.value, type: pageType.value, status: status.value, snippets: snippets.value() };
}

const sameSnippets = (a, b) => JSON.stringify(a) === JSON.stringify(b);

function dirty() {
  const now = current();
  return now.text !== state.saved.text || now.type !== state.saved.type || now.status !== state.saved.status ||
    !sameSnippets(now.snippets, state.saved.snippets);
}

function showDirty() {
  const unsaved = dirty();
  $("unsaved").hidden = !unsaved;
  document.title = (unsaved ? "* " : "") + title;
}
const title = document.title;

function keepDraft() {
  if (dirty()) {
    storeDraft(data.pageId, { ...current(), version: state.version, ...provenance(), effort: effort.snapshot(editor.value) });
  }
  else clearDraft(data.pageId);
}

// A draft that edited the version the server has is restored; one that edited another version (the gold
// was restored or saved elsewhere since) is offered beside the newer saved text, with a diff, never put
// over it unasked; taken, it edits the saved version, so saving it is no conflict with yourself.
function restoreDraft() {
  const draft = loadDraft(data.pageId);
  if (draft && draft.type === undefined) draft.type = draft.kind; // kept before the page type had one name
  if (!draft || typeof draft.text !== "string") return;
  effort.resume(draft.effort, data.effort.actions); // the unsaved work of the earlier visit counts too
  const same = draft.text === editor.value && draft.type === pageType.value && draft.status === status.value &&
    (!draft.snippets || sameSnippets(draft.snippets, snippets.value()));
  if (same) { clearDraft(data.pageId); return; }
  const when = new Date(draft.savedAt).toLocaleString();
  if (draft.version !== state.version) {
    offerOldDraft(draft, when);
    return;
  }
  const server = { ...state.saved, version: state.version };
  putDraft(draft);
  notice(`Restored your unsaved draft from ${when} (it edited version ${draft.version}).`, {
    label: "Discard draft",
    run: () => {
      clearDraft(data.pageId);
      byTool(() => { editor.value = server.text; });
      pageType.value = server.type; status.value = server.status;
      snippets.set(server.snippets);
      origins.change(server.text); // the saved text's origins, as they were
      state.version = server.version;
      afterEdit();
    },
  }, "draft");
}

function putDraft(draft) {
  replaceText(draft.text);
  if (Array.isArray(draft.lines) && draft.lines.length === draft.text.split("\n").length) {
    origins.reset(draft.text, draft.lines); // the origins the draft's lines had
  }
  if (draft.prefill) state.prefill = draft.prefill;
  pageType.value = draft.type;
  status.value = draft.status;
  if (draft.snippets) snippets.set(draft.snippets);
  afterEdit();
}

function offerOldDraft(draft, when) {
  $("old-draft-what").textContent = `It is from ${when} and edited version ${draft.version}; ` +
    `the saved gold is now version ${state.version}.`;
  render(diff(words(editor.value), words(draft.text)), $("old-draft-diff"));
  $("old-draft").hidden = false;
  const done = (message) => { $("old-draft").hidden = true; setSaveState(message); };
  $("old-draft-use").onclick = () => {
    putDraft(draft);
    done(`Your older draft is in the editor (Ctrl+Z takes it out); saving it makes version ${state.version + 1}.`);
  };
  $("old-draft-discard").onclick = () => {
    clearDraft(data.pageId);
    done("Discarded the older draft.");
  };
}

// --- saving -----------------------------------------------------------------------------------------
async function save() {
  const body = metadata.into({ ...current(), version: state.version, provenance: provenance() });
  const same = state.pending && JSON.stringify(state.pending.body) === JSON.stringify(body);
  if (!same) state.pending = { id: newSaveId(), body, effort: effort.snapshot(body.text) };
  const { id, effort: sent } = state.pending;
  setSaveState("Saving…");
  let reply;
  try {
    reply = await postJson(data.saveUrl, { ...body, client_save_id: id, effort: sent });
  } catch {
    setSaveState("Not saved: no connection. Your draft is kept in this browser; retrying…", true);
    setTimeout(() => { if (state.pending?.id === id) save(); }, RETRY_MS);
    return false;
  }
  if (state.pending?.id === id) state.pending = null;
  if (reply.status === 200 || reply.status === 409) { // a stale save is kept as a revision, with its effort
    effort.recorded(sent);
    data.effort.savedSeconds += sent.active_seconds;
  }
  if (reply.status === 200) {
    state.version = reply.data.version;
    state.saved = { text: body.text, type: body.type, status: body.status, snippets: body.snippets };
    hideConflict();
    keepDraft();
    showDirty();
    setSaveState(`Saved version ${reply.data.version}.`);
    for (const id of ["prefill-notice", "type-signal"]) $(id)?.remove(); // "nothing is saved yet", "Saving confirms it"
    return true;
  }
  if (reply.status === 409) {
    showConflict(reply.data.current, body.text);
    setSaveState("Not applied: someone else saved first. Your text is kept in the history.", true);
  } else {
    setSaveState(`Not saved: ${reply.data?.message || `error ${reply.status}`}. Your draft is kept.`, true);
  }
  return false;
}

function setStatusAndSave(value) {
  status.value = value;
  afterEdit();
  return save();
}

function setPageType(value) {
  pageType.value = value;
  afterEdit();
}

// --- conflicts --------------------------------------------------------------------------------------
let theirs = null;

function showConflict(other, mine) {
  theirs = other;
  $("conflict-who").textContent = `version ${other.version} by ${other.author}`;
  $("conflict").dataset.author = other.author;
  $("conflict-theirs").textContent = other.text;
  render(diff(words(other.text), words(mine)), $("conflict-diff"));
  $("merge").disabled = false;
  $("conflict").hidden = false;
}

function hideConflict() {
  $("conflict").hidden = true;
  theirs = null;
}

$("keep-mine").addEventListener("click", () => {
  state.version = theirs.version;
  save();
});
$("keep-theirs").addEventListener("click", () => {
  byTool(() => { editor.value = theirs.text; });
  origins.reset(theirs.text, null, "gold"); // the editor starts again from their version
  state.prefill = { source: "gold", version: theirs.version };
  pageType.value = theirs.type;
  status.value = theirs.status;
  state.version = theirs.version;
  snippets.set(theirs.snippets);
  state.saved = { text: theirs.text, type: theirs.type, status: theirs.status, snippets: snippets.value() };
  hideConflict();
  afterEdit();
  setSaveState(`Showing version ${state.version} by ${$("conflict").dataset.author}.`);
});
$("merge").addEventListener("click", () => {
  state.version = theirs.version;
  $("merge").disabled = true;
  editor.focus();
  setSaveState("Merge their text into yours, then save.");
});

// --- the rendered page ------------------------------------------------------------------------------
const frame = $("frame");

const goldLines = () => (editor.value ? editor.value.split("\n") : []);
const pageTexts = () => state.frame?.texts ?? [];

// The page's blocks the gold's lines are aligned to, computed once per text and pins (the highlight after a
// change and the debounced one after it ask alike).
let aligned = { text: null, pinned: null, texts: null, blocks: new Set() };
function goldBlocks() {
  const texts = pageTexts();
  if (aligned.text !== editor.value || aligned.pinned !== state.pinned || aligned.texts !== texts) {
    const blocks = align(goldLines(), texts, state.pinned).filter((block) => block !== NONE);
    aligned = { text: editor.value, pinned: state.pinned, texts, blocks: new Set(blocks) };
  }
  return aligned.blocks;
}

function highlightBlocks() {
  state.frame?.highlight(goldBlocks());
}

const wired = new WeakSet();
let lastChange = null; // {before, after, notice, pinned (before)} of the last change from the page or a candidate

// One change to the gold from the page or a candidate: one undoable edit (Ctrl+Z), a notice with an undo
// button, the editor scrolled to line `at` (its `count` lines selected); its new lines' origin is `origin`.
function changeGold(next, at, count, message, pinnedBefore = state.pinned, origin = "block") {
  const offset = next.slice(0, at).reduce((sum, line) => sum + line.length + 1, 0);
  const end = offset + Math.max(0, next.slice(at, at + count).join("\n").length);
  const after = next.join("\n");
  const before = replaceFrom(origin, after, offset, end);
  const shown = undoNotice(message, before, "page-change");
  lastChange = { before, after, notice: shown, pinned: pinnedBefore };
  highlightBlocks();
}

// The first click of a double click changed the gold: the double click selects a word instead.
function cancelLastChange() {
  if (!lastChange || editor.value !== lastChange.after) return;
  undoEdit("undo");
  if (editor.value !== lastChange.before) replaceText(lastChange.before);
  lastChange.notice.remove();
  state.pinned = lastChange.pinned;
  lastChange = null;
  if (pageCounted) effort.uncount(pageCounted); // selecting text is no action
  pageCounted = null;
  highlightBlocks();
}

// The action the last change from the page counted: a double click takes it back with the change.
let pageCounted = null;
function countPage(action) {
  effort.count(action);
  pageCounted = action;
}

// A block clicked in the page: its own line goes out of the gold, or it goes in at its place.
function toggleBlockLine(index) {
  const texts = pageTexts();
  const before = state.pinned;
  countPage("block");
  const { lines, at, added } = toggleBlock(goldLines(), texts, index, { pinned: before });
  state.pinned = new Set(before);
  if (added) state.pinned.add(index);
  else state.pinned.delete(index);
  changeGold(lines, at, added ? 1 : 0,
    added ? `Added “${short(texts[index])}” to the gold.` : `Took out “${short(texts[index])}” from the gold.`, before);
}

// Several blocks into the gold (`take`) or out of it at once (a Shift+click range, a container), as one
// change; `what` names them in the notice.
function setPageBlocks(indexes, take, what) {
  const texts = pageTexts(), lines = goldLines();
  const before = state.pinned;
  const { lines: next, changed, pinned } = setBlocks(lines, texts, indexes, take, before);
  state.pinned = pinned;
  if (!changed) {
    notice(`Every block of ${what} is ${take ? "in" : "out of"} the gold already.`, null, "page-change");
    return;
  }
  const placed = align(take ? next : lines, texts, state.pinned);
  const first = Math.max(0, placed.findIndex((block) => indexes.includes(block)));
  changeGold(next, first, take ? changed : 0,
    `${take ? "Added" : "Took out"} ${plural(changed, "block")} of ${what} ${take ? "to" : "from"} the gold.`, before);
}

const pageActions = {
  toggle: toggleBlockLine,
  range(from, to) {
    const [lo, hi] = from < to ? [from, to] : [to, from];
    const indexes = Array.from({ length: hi - lo + 1 }, (_, k) => lo + k);
    countPage("range");
    setPageBlocks(indexes, !goldBlocks().has(to), "the range");
  },
  container(indexes) {
    const present = goldBlocks();
    countPage("block");
    setPageBlocks(indexes, !indexes.every((index) => present.has(index)), "the outlined container");
  },
  cancel: cancelLastChange,
};

// The keyboard's block pointer in the page, and widening it to its containers.
function stepBlock(delta) {
  const text = state.frame?.step(delta);
  if (text !== undefined && text !== null) setSaveState(`Block: “${short(text)}” (t takes it or takes it out).`);
}

function actOnPointed(range) {
  if (state.frame && !state.frame.actOnPointed(range)) {
    setSaveState("Point at a block first: move the mouse over it, or ] and [ to step through the page.", true);
  }
}

function widenBlock(outward) {
  if (!state.frame) return;
  const found = outward ? state.frame.widen() : state.frame.narrow();
  if (found && outward) effort.count("widen");
  if (found) setSaveState(`Outlined: a ${found.name} with ${plural(found.count, "block")} (click or t takes it; + wider, - narrower).`);
  else setSaveState(outward ? "No wider container: point at a block first, or this is the page's widest." : "Back to the block alone.");
}

// --- taking lines from a candidate ------------------------------------------------------------------
const takes = takeView($("lines"), () => ({
  candidate: candidates[state.active], gold: goldLines(), page: pageTexts(), pinned: state.pinned,
}), (lines, at, count, message, pinned) => {
  const before = state.pinned;
  state.pinned = pinned;
  changeGold(lines, at, count, message, before, `candidate:${candidates[state.active].name}`);
}, (action) => effort.count(action));
const showLines = () => takes.show();

function showLinesView(on = $("lines").hidden) {
  $("lines").hidden = !on;
  $("diff").hidden = on;
  document.querySelector(".pane-candidates .legend").hidden = on;
  $("show-lines").setAttribute("aria-pressed", String(on));
  if (on) showLines();
}

// The lines view, with the focus on its first line to take (or the next one when already in it).
function goToLines() {
  showLinesView(true);
  const buttons = [...$("lines").querySelectorAll("button.take-line")];
  const at = buttons.indexOf(document.activeElement);
  (buttons[at + 1] ?? buttons[0])?.focus();
}

// Every line of the gold that is repeated boilerplate on the page's site, out as one undoable edit.
function dropRepeated() {
  const repeated = new Set(data.boilerplate || []);
  const lines = editor.value.split("\n");
  const kept = lines.filter((line) => !repeated.has(normalise(line)));
  const dropped = lines.length - kept.length;
  if (!dropped) {
    notice("No line of the gold is repeated boilerplate on this site.", null, "page-change");
    return;
  }
  const before = replaceText(kept.join("\n"));
  effort.count("drop_boilerplate");
  undoNotice(`Took out ${dropped} line${dropped === 1 ? "" : "s"} repeated on this site's pages.`, before, "page-change");
}

function setupFrame() {
  const doc = frame.contentDocument;
  if (frame.dataset.mode === "source" || !doc || dom.url(doc) === "about:blank" || wired.has(doc)) return;
  wired.add(doc);
  dom.on(doc, "keydown", onKey);
  activity.watch(doc);
  dom.on(doc, "selectionchange", () => noteSelection(doc));
  dom.on(doc, "pointerdown", () => { selectedLast = doc; });
  state.frame = attachBlocks(doc, pageActions, data.blocks);
  state.frame.markRepeated(data.boilerplate || []);
  highlightBlocks();
}

frame.addEventListener("load", () => {
  state.frame = null;
  setupFrame();
});

function showFrame(mode) {
  frame.dataset.mode = mode;
  frame.src = mode === "source" ? frame.dataset.source : frame.dataset.raw;
  $("show-rendered").setAttribute("aria-pressed", String(mode !== "source"));
  $("show-source").setAttribute("aria-pressed", String(mode === "source"));
}

$("show-rendered").addEventListener("click", () => showFrame("raw"));
$("show-source").addEventListener("click", () => showFrame("source"));

// --- wiring -----------------------------------------------------------------------------------------
const startPageType = pageType.value;
const refreshSoon = debounce(() => { refreshCandidates(); highlightBlocks(); }, 200);
const draftSoon = debounce(keepDraft, 300);

function afterEdit() {
  if (pageType.value !== startPageType) $("type-signal")?.remove(); // it explains a type no longer chosen
  guideline.follow();
  showDirty();
  refreshSoon();
  draftSoon();
}

editor.addEventListener("input", () => {
  origins.change(editor.value, arriving);
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
$("save").addEventListener("click", save);
$("use-candidate").addEventListener("click", useCandidate);
$("show-lines").addEventListener("click", () => showLinesView());

// --- snippet gold -----------------------------------------------------------------------------------
// The document where text was selected last (the saved page's or this one): its selection is the snippet.
let selectedLast = null;
const lastText = new Map(); // document -> its selected text when last seen

// A snippet is selected in the saved page or in a candidate's text (its diff or its lines to take), never in
// the editor: a tool that shows a line selects it there (a block click does), and that is no snippet.
function snippetText(doc) {
  if (!doc || doc !== document) return doc ? selectedText(doc) : "";
  const selection = document.getSelection();
  const node = selection?.rangeCount ? selection.getRangeAt(0).commonAncestorContainer : null;
  return node && ($("diff").contains(node) || $("lines").contains(node)) ? selectedText(doc) : "";
}

function noteSelection(doc) {
  const text = snippetText(doc);
  if (text && text !== lastText.get(doc)) selectedLast = doc;
  lastText.set(doc, text);
}
document.addEventListener("selectionchange", () => noteSelection(document));
// A press starts the newest selection at once: selectionchange may come after a key pressed right away.
$("diff").addEventListener("pointerdown", () => { selectedLast = document; });

function addSnippet(which) {
  const text = [selectedLast, frame.contentDocument, document].map(snippetText).find(Boolean) ?? "";
  if (!text) {
    setSaveState("Select some text in the page or a candidate first, then add it as a snippet.", true);
    return;
  }
  const { added, moved } = snippets.add(which, text);
  if (!added) return;
  const other = which === "with" ? "without" : "with";
  notice(moved ? `Moved “${short(text)}” from the ${LABELS[other]} to the ${LABELS[which]} snippets.`
    : `Added “${short(text)}” as a ${LABELS[which]} snippet.`, null, "snippet");
  setSaveState(`Added a ${LABELS[which]} snippet (not saved yet).`);
}

$("add-with").addEventListener("mousedown", (event) => event.preventDefault());
$("add-without").addEventListener("mousedown", (event) => event.preventDefault());
$("add-with").addEventListener("click", () => addSnippet("with"));
$("add-without").addEventListener("click", () => addSnippet("without"));
tabs.forEach((tab, index) => tab.addEventListener("click", () => selectTab(index)));
const pickTab = tabKeys(() => candidates.length, selectTab);
window.addEventListener("pagehide", keepDraft);

$("guideline-button").addEventListener("click", () => guideline.toggle());

// Moving to another page saves unsaved changes first, and moves only when the save succeeded.
let leaving = false;
async function go(id) {
  if (dirty()) {
    setSaveState("Saving before moving on…");
    if (!(await save())) {
      notice("Not moved: your changes are not saved yet (see below). Save, or move again once saved.", null, "move");
      return;
    }
  }
  keepDraft();
  leaving = true;
  window.location.href = $(id).href;
}
async function doneAndNext() {
  if (await setStatusAndSave("done")) go("next");
}
for (const id of ["next", "prev"]) {
  $(id).addEventListener("click", (event) => { event.preventDefault(); go(id); });
}
// Leaving otherwise (a link, a reload, closing the tab) with unsaved changes asks; the draft stays anyway.
window.addEventListener("beforeunload", (event) => {
  if (leaving || !dirty()) return;
  keepDraft();
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

const SHORTCUTS = [
  { keys: ["n"], label: "next page in the queue (saves first)", run: () => go("next") },
  { keys: ["p"], label: "previous page in the queue (saves first)", run: () => go("prev") },
  { keys: ["D"], label: "done and next: mark done, save, go to the next page", run: doneAndNext },
  { keys: ["Enter"], ctrl: true, whileTyping: true, label: "done and next (also while typing)", run: doneAndNext },
  { keys: ["Enter"], label: "go into the editor", when: plainTarget, run: () => editor.focus() },
  { keys: ["Escape"], whileTyping: true, always: true, label: "leave the editor, a field or the saved page; close this help", run: leaveField },
  { keys: ["f"], label: "go to the saved page (arrow keys scroll it)", run: () => frame.focus() },
  { keys: ["c"], label: "go to the candidate's diff, or its lines to take when shown (arrow keys scroll it)",
    run: () => ($("lines").hidden ? $("diff") : $("lines")).focus() },
  { keys: ["1", "2", "3", "4", "5", "6", "7", "8", "9", "0"], label: "show candidate 1–9, 0 the tenth; two digits typed quickly the others (1 2: the twelfth)", run: (e) => pickTab(e.key) },
  { keys: ["u"], label: "use this candidate", run: useCandidate },
  { keys: ["y"], label: "the candidate's lines the gold lacks: go to the next one (Enter takes it, Tab reaches its run and region)", run: goToLines },
  { keys: ["]"], label: "point at the next block of the page", run: () => stepBlock(1) },
  { keys: ["["], label: "point at the previous block of the page", run: () => stepBlock(-1) },
  { keys: ["t"], label: "take the pointed block (or the outlined container) into the gold, or take it out", run: () => actOnPointed(false) },
  { keys: ["T"], label: "take or take out every block from the last one acted on to the pointed one (as Shift+click)", run: () => actOnPointed(true) },
  { keys: ["+"], label: "widen the pointed block to its container, and again to the next one up (outlined)", run: () => widenBlock(true) },
  { keys: ["-"], label: "narrow the outline back", run: () => widenBlock(false) },
  { keys: ["b"], label: "take out every line repeated on this site's pages (boilerplate)", run: dropRepeated },
  { keys: ["z"], ctrl: true, label: "undo the last change to the gold text (in the editor: the browser's undo)", run: () => undoEdit("undo") },
  { keys: ["z"], ctrl: true, shift: true, label: "redo", run: () => undoEdit("redo") },
  { keys: ["s"], ctrl: true, whileTyping: true, label: "save (also while typing)", run: save },
  { keys: ["d"], label: "mark done and save", run: () => setStatusAndSave("done") },
  { keys: ["s"], label: "skip: mark skipped and save", run: () => setStatusAndSave("skipped") },
  ...typeShortcuts,
  { keys: ["i"], label: "add the selected text as a must-include snippet", run: () => addSnippet("with") },
  { keys: ["e"], label: "add the selected text as a must-exclude snippet", run: () => addSnippet("without") },
  { keys: ["G"], label: "show or hide the page type's guideline beside the editor (it follows the type)", run: () => guideline.toggle() },
  { keys: ["?"], always: true, label: "show or hide this help", run: () => help.toggle() },
];
const help = helpDialog(SHORTCUTS);
const onKey = bindShortcuts(SHORTCUTS, help.isOpen);
const metadata = metadataFields(help); // the title, authors and date above the gold text

restoreDraft();
// A link such as /pages/7#candidate=density (from the leaderboard's drill-down) opens that candidate.
const wanted = new URLSearchParams(window.location.hash.slice(1)).get("candidate");
selectTab(Math.max(0, candidates.findIndex((c) => c.name === wanted)));
const loaded = frame.contentDocument;
if (loaded && dom.readyState(loaded) === "complete") setupFrame();
showDirty();
showPace();
setInterval(showPace, 1000);
document.body.dataset.ready = "yes";
