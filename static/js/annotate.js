// The annotate view: candidate tabs with word diffs and live scores, blocks of the rendered page, the gold
// editor with drafts, saves that never lose anything (retries, conflicts), and the keyboard.
import { attachBlocks, toggleLine } from "./blocks.js";
import { clearDraft, loadDraft, storeDraft } from "./drafts.js";
import { bindShortcuts, renderHelp } from "./keys.js";
import { selectionIn, snippetEditor } from "./snippets.js";
import { debounce, newSaveId, postJson } from "./net.js";
import { bag, scores } from "./tokens.js";
import { diff, render, words } from "./worddiff.js";

const data = JSON.parse(document.getElementById("page-data").textContent);
const $ = (id) => document.getElementById(id);
const editor = $("editor"), kind = $("kind"), status = $("status");
const tabs = [...document.querySelectorAll("#tabs .tab")];
const candidates = data.candidates.map((c) => ({ ...c, bag: bag(c.text), words: words(c.text) }));
const RETRY_MS = 3000;
const snippets = snippetEditor({ with: $("snippets-with"), without: $("snippets-without") }, data.snippets,
  () => afterEdit());

const state = {
  version: data.editor.version,
  saved: { text: data.editor.text, kind: data.editor.kind, status: data.editor.status, snippets: snippets.value() },
  active: 0,
  pending: null, // {id, body} of the save in flight or waiting for a retry
  frame: null,
};

const percent = (x) => `${(100 * x).toFixed(1)}%`;

function notice(text, action) {
  const p = document.createElement("p");
  p.className = "notice";
  p.textContent = text + " ";
  if (action) {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = action.label;
    button.addEventListener("click", () => { action.run(); p.remove(); });
    p.append(button);
  }
  $("notices").append(p);
  return p;
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
}

function selectTab(index) {
  if (index < 0 || index >= candidates.length) return;
  state.active = index;
  tabs.forEach((tab, i) => {
    tab.classList.toggle("active", i === index);
    tab.setAttribute("aria-selected", String(i === index));
  });
  showInfo(candidates[index]);
  refreshCandidates();
}

// Replace the editor's text as one undoable edit (Ctrl+Z in the editor brings the old text back).
function replaceText(text) {
  const before = editor.value;
  const typing = document.activeElement === editor;
  editor.focus();
  editor.select();
  if (!document.execCommand("insertText", false, text) || editor.value !== text) {
    editor.value = text;
    editor.dispatchEvent(new Event("input"));
  }
  if (!typing) editor.blur();
  return before;
}

function useCandidate() {
  const candidate = candidates[state.active];
  if (!candidate) return;
  const before = replaceText(candidate.text);
  notice(`Replaced the text with ${candidate.name}'s.`, { label: "Undo", run: () => replaceText(before) });
}

// --- drafts -----------------------------------------------------------------------------------------
function current() {
  return { text: editor.value, kind: kind.value, status: status.value, snippets: snippets.value() };
}

const sameSnippets = (a, b) => JSON.stringify(a) === JSON.stringify(b);

function dirty() {
  const now = current();
  return now.text !== state.saved.text || now.kind !== state.saved.kind || now.status !== state.saved.status ||
    !sameSnippets(now.snippets, state.saved.snippets);
}

function keepDraft() {
  if (dirty()) storeDraft(data.pageId, { ...current(), version: state.version });
  else clearDraft(data.pageId);
}

function restoreDraft() {
  const draft = loadDraft(data.pageId);
  if (!draft || typeof draft.text !== "string") return;
  const same = draft.text === editor.value && draft.kind === kind.value && draft.status === status.value &&
    (!draft.snippets || sameSnippets(draft.snippets, snippets.value()));
  if (same) { clearDraft(data.pageId); return; }
  const server = { ...state.saved, version: state.version };
  editor.value = draft.text;
  kind.value = draft.kind;
  status.value = draft.status;
  state.version = draft.version;
  if (draft.snippets) snippets.set(draft.snippets);
  const when = new Date(draft.savedAt).toLocaleString();
  notice(`Restored your unsaved draft from ${when} (it edited version ${draft.version}).`, {
    label: "Discard draft",
    run: () => {
      clearDraft(data.pageId);
      editor.value = server.text; kind.value = server.kind; status.value = server.status;
      snippets.set(server.snippets);
      state.version = server.version;
      afterEdit();
    },
  });
}

// --- saving -----------------------------------------------------------------------------------------
async function save() {
  const body = { ...current(), version: state.version };
  const same = state.pending && JSON.stringify(state.pending.body) === JSON.stringify(body);
  if (!same) state.pending = { id: newSaveId(), body };
  const { id } = state.pending;
  setSaveState("Saving…");
  let reply;
  try {
    reply = await postJson(data.saveUrl, { ...body, client_save_id: id });
  } catch {
    setSaveState("Not saved: no connection. Your draft is kept in this browser; retrying…", true);
    setTimeout(() => { if (state.pending?.id === id) save(); }, RETRY_MS);
    return;
  }
  if (state.pending?.id === id) state.pending = null;
  if (reply.status === 200) {
    state.version = reply.data.version;
    state.saved = { text: body.text, kind: body.kind, status: body.status, snippets: body.snippets };
    hideConflict();
    keepDraft();
    setSaveState(`Saved version ${reply.data.version}.`);
  } else if (reply.status === 409) {
    showConflict(reply.data.current, body.text);
    setSaveState("Not applied: someone else saved first. Your text is kept in the history.", true);
  } else {
    setSaveState(`Not saved: ${reply.data?.message || `error ${reply.status}`}. Your draft is kept.`, true);
  }
}

function setStatusAndSave(value) {
  status.value = value;
  afterEdit();
  save();
}

// --- conflicts --------------------------------------------------------------------------------------
let theirs = null;

function showConflict(other, mine) {
  theirs = other;
  $("conflict-who").textContent = `version ${other.version} by ${other.author}`;
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
  editor.value = theirs.text;
  kind.value = theirs.kind;
  status.value = theirs.status;
  state.version = theirs.version;
  snippets.set(theirs.snippets);
  state.saved = { text: theirs.text, kind: theirs.kind, status: theirs.status, snippets: snippets.value() };
  hideConflict();
  afterEdit();
  setSaveState(`Showing version ${state.version} by ${$("conflict-who").textContent}.`);
});
$("merge").addEventListener("click", () => {
  state.version = theirs.version;
  $("merge").disabled = true;
  editor.focus();
  setSaveState("Merge their text into yours, then save.");
});

// --- the rendered page ------------------------------------------------------------------------------
const frame = $("frame");

function highlightBlocks() {
  state.frame?.highlight(editor.value.split("\n"));
}

const wired = new WeakSet();

function setupFrame() {
  const doc = frame.contentDocument;
  if (frame.dataset.mode === "source" || !doc || doc.URL === "about:blank" || wired.has(doc)) return;
  wired.add(doc);
  doc.addEventListener("keydown", onKey);
  state.frame = attachBlocks(doc, (text, order) => {
    replaceText(toggleLine(editor.value.split("\n").filter((l) => l.trim()), text, order).join("\n"));
  }, data.blocks);
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
const refreshSoon = debounce(() => { refreshCandidates(); highlightBlocks(); }, 200);
const draftSoon = debounce(keepDraft, 300);

function afterEdit() {
  refreshSoon();
  draftSoon();
}

editor.addEventListener("input", afterEdit);
kind.addEventListener("change", afterEdit);
status.addEventListener("change", afterEdit);
$("save").addEventListener("click", save);
$("use-candidate").addEventListener("click", useCandidate);

// --- snippet gold -----------------------------------------------------------------------------------
function addSnippet(which) {
  const text = selectionIn(frame.contentDocument, document);
  if (!text) {
    setSaveState("Select some text in the page or a candidate first, then add it as a snippet.", true);
    return;
  }
  if (snippets.add(which, text)) setSaveState(`Added a ${which === "with" ? "must-include" : "must-exclude"} snippet (not saved yet).`);
}

$("add-with").addEventListener("mousedown", (event) => event.preventDefault());
$("add-without").addEventListener("mousedown", (event) => event.preventDefault());
$("add-with").addEventListener("click", () => addSnippet("with"));
$("add-without").addEventListener("click", () => addSnippet("without"));
tabs.forEach((tab, index) => tab.addEventListener("click", () => selectTab(index)));
window.addEventListener("pagehide", keepDraft);

const help = $("help");
const toggleHelp = (show = help.hidden) => { help.hidden = !show; };
help.addEventListener("click", (event) => { if (event.target === help) toggleHelp(false); });
$("help-button").addEventListener("click", () => toggleHelp());

const go = (id) => { keepDraft(); window.location.href = $(id).href; };
const SHORTCUTS = [
  { keys: ["n"], label: "next page in the queue", run: () => go("next") },
  { keys: ["p"], label: "previous page in the queue", run: () => go("prev") },
  { keys: ["1", "2", "3", "4", "5", "6", "7", "8", "9"], label: "show candidate 1–9", run: (e) => selectTab(Number(e.key) - 1) },
  { keys: ["u"], label: "use this candidate (undo: Ctrl+Z in the editor)", run: useCandidate },
  { keys: ["s"], ctrl: true, whileTyping: true, label: "save", run: save },
  { keys: ["d"], label: "mark done and save", run: () => setStatusAndSave("done") },
  { keys: ["s"], label: "skip: mark skipped and save", run: () => setStatusAndSave("skipped") },
  { keys: ["a"], label: "page kind: article", run: () => { kind.value = "article"; afterEdit(); } },
  { keys: ["x"], label: "page kind: not an article", run: () => { kind.value = "not-article"; afterEdit(); } },
  { keys: ["i"], label: "add the selected text as a must-include snippet", run: () => addSnippet("with") },
  { keys: ["e"], label: "add the selected text as a must-exclude snippet", run: () => addSnippet("without") },
  { keys: ["?"], label: "show or hide this help", run: () => toggleHelp() },
  { keys: ["Escape"], label: "close this help", run: () => toggleHelp(false) },
];
renderHelp(SHORTCUTS, $("help-table"));
const onKey = bindShortcuts(SHORTCUTS);

restoreDraft();
// A link such as /pages/7#candidate=density (from the leaderboard's drill-down) opens that candidate.
const wanted = new URLSearchParams(window.location.hash.slice(1)).get("candidate");
selectTab(Math.max(0, candidates.findIndex((c) => c.name === wanted)));
if (frame.contentDocument?.readyState === "complete") setupFrame();
