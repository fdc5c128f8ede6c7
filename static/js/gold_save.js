// Saving the gold: the one body a save sends (`savePayload`), saves that never lose anything (a lost
// connection retries and keeps the draft; a save that edited an older version is kept in the history and
// shown as a conflict, theirs beside a diff against mine, to keep mine, take theirs or merge by hand).
import { newSaveId, postJson } from "./net.js";
import { diff, render, words } from "./worddiff.js";

const RETRY_MS = 3000;

// What a save sends (POST /api/pages/ID/gold, usecases/bodies.py SAVE): the editor's Markdown (the plain
// text is derived from it on the server), the page type, the status, the snippets, the version edited and
// the provenance of the lines. `now`: the view's current() (gold_drafts.js). A new field of a save is added
// here.
export function savePayload(now, version, provenance) {
  return { markdown: now.text, type: now.type, status: now.status, snippets: now.snippets, version, provenance };
}

// `view`: the annotate view's shared parts (annotate.js), its `extendPayload` adding what other parts of the
// view save with the gold (the metadata fields); `drafts`: gold_drafts.js's.
export function goldSaver(view, drafts) {
  const { data, $, editor, pageType, status, snippets, state, origins, effort } = view;
  let theirs = null;

  async function save() {
    const now = drafts.current();
    const body = view.extendPayload(savePayload(now, state.version, view.provenance()));
    const same = state.pending && JSON.stringify(state.pending.body) === JSON.stringify(body);
    if (!same) state.pending = { id: newSaveId(), body, effort: effort.snapshot(now.text) };
    const { id, effort: sent } = state.pending;
    view.setSaveState("Saving…");
    let reply;
    try {
      reply = await postJson(data.saveUrl, { ...body, client_save_id: id, effort: sent });
    } catch {
      view.setSaveState("Not saved: no connection. Your draft is kept in this browser; retrying…", true);
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
      state.saved = { text: now.text, type: now.type, status: now.status, snippets: now.snippets };
      hideConflict();
      drafts.keep();
      drafts.showDirty();
      view.setSaveState(`Saved version ${reply.data.version}.`);
      for (const element of ["prefill-notice", "type-signal"]) $(element)?.remove(); // "nothing is saved yet", "Saving confirms it"
      return true;
    }
    if (reply.status === 409) {
      showConflict(reply.data.current, now.text);
      view.setSaveState("Not applied: someone else saved first. Your text is kept in the history.", true);
    } else {
      view.setSaveState(`Not saved: ${reply.data?.message || `error ${reply.status}`}. Your draft is kept.`, true);
    }
    return false;
  }

  function showConflict(other, mine) {
    theirs = other;
    $("conflict-who").textContent = `version ${other.version} by ${other.author}`;
    $("conflict").dataset.author = other.author;
    $("conflict-theirs").textContent = other.markdown ?? other.text;
    render(diff(words(other.markdown ?? other.text), words(mine)), $("conflict-diff"));
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
    view.byTool(() => { editor.value = theirs.markdown ?? theirs.text; });
    origins.reset(editor.value, null, "gold"); // the editor starts again from their version
    state.prefill = { source: "gold", version: theirs.version };
    pageType.value = theirs.type;
    status.value = theirs.status;
    state.version = theirs.version;
    snippets.set(theirs.snippets);
    state.saved = { text: editor.value, type: theirs.type, status: theirs.status, snippets: snippets.value() };
    hideConflict();
    view.afterEdit();
    view.setSaveState(`Showing version ${state.version} by ${$("conflict").dataset.author}.`);
  });
  $("merge").addEventListener("click", () => {
    state.version = theirs.version;
    $("merge").disabled = true;
    editor.focus();
    view.setSaveState("Merge their text into yours, then save.");
  });

  function setStatusAndSave(value) {
    status.value = value;
    view.afterEdit();
    return save();
  }

  return { save, setStatusAndSave };
}
