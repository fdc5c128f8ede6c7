// The gold editor's drafts: what is on screen and whether it differs from the saved gold, kept in this
// browser while unsaved (drafts.js), and put back on the next visit. A draft that edited the version the
// server has is restored; one that edited another version (the gold was restored or saved elsewhere since)
// is offered beside the newer saved text, with a diff, never put over it unasked; taken, it edits the saved
// version, so saving it is no conflict with yourself.
import { clearDraft, loadDraft, storeDraft } from "./drafts.js";
import { diff, render, words } from "./worddiff.js";

const sameSnippets = (a, b) => JSON.stringify(a) === JSON.stringify(b);

// `view`: the annotate view's shared parts (annotate.js): data, $, editor, pageType, status, snippets,
// state, origins, effort, byTool, text (gold_editor.js), notices, afterEdit, setSaveState, provenance.
export function goldDrafts(view) {
  const { data, $, editor, pageType, status, snippets, state, origins, effort } = view;

  // What the editor shows: its Markdown (`text`), the page type, the status and the snippets.
  function current() {
    return { text: editor.value, type: pageType.value, status: status.value, snippets: snippets.value() };
  }

  function dirty() {
    const now = current();
    return now.text !== state.saved.text || now.type !== state.saved.type || now.status !== state.saved.status ||
      !sameSnippets(now.snippets, state.saved.snippets);
  }

  const title = document.title;
  function showDirty() {
    const unsaved = dirty();
    $("unsaved").hidden = !unsaved;
    document.title = (unsaved ? "* " : "") + title;
  }

  function keep() {
    if (dirty()) {
      storeDraft(data.pageId, { ...current(), version: state.version, ...view.provenance(), effort: effort.snapshot(editor.value) });
    } else clearDraft(data.pageId);
  }

  function restore() {
    const draft = loadDraft(data.pageId);
    if (draft && draft.type === undefined) draft.type = draft.kind; // kept before the page type had one name
    if (!draft || typeof draft.text !== "string") return;
    effort.resume(draft.effort, data.effort.actions); // the unsaved work of the earlier visit counts too
    const same = draft.text === editor.value && draft.type === pageType.value && draft.status === status.value &&
      (!draft.snippets || sameSnippets(draft.snippets, snippets.value()));
    if (same) { clearDraft(data.pageId); return; }
    const when = new Date(draft.savedAt).toLocaleString();
    if (draft.version !== state.version) {
      offerOld(draft, when);
      return;
    }
    const server = { ...state.saved, version: state.version };
    put(draft);
    view.notices.notice(`Restored your unsaved draft from ${when} (it edited version ${draft.version}).`, {
      label: "Discard draft",
      run: () => {
        clearDraft(data.pageId);
        view.byTool(() => { editor.value = server.text; });
        pageType.value = server.type; status.value = server.status;
        snippets.set(server.snippets);
        origins.change(server.text); // the saved text's origins, as they were
        state.version = server.version;
        view.afterEdit();
      },
    }, "draft");
  }

  function put(draft) {
    view.text.replaceText(draft.text);
    if (Array.isArray(draft.lines) && draft.lines.length === draft.text.split("\n").length) {
      origins.reset(draft.text, draft.lines); // the origins the draft's lines had
    }
    if (draft.prefill) state.prefill = draft.prefill;
    pageType.value = draft.type;
    status.value = draft.status;
    if (draft.snippets) snippets.set(draft.snippets);
    view.afterEdit();
  }

  function offerOld(draft, when) {
    $("old-draft-what").textContent = `It is from ${when} and edited version ${draft.version}; ` +
      `the saved gold is now version ${state.version}.`;
    render(diff(words(editor.value), words(draft.text)), $("old-draft-diff"));
    $("old-draft").hidden = false;
    const done = (message) => { $("old-draft").hidden = true; view.setSaveState(message); };
    $("old-draft-use").onclick = () => {
      put(draft);
      done(`Your older draft is in the editor (Ctrl+Z takes it out); saving it makes version ${state.version + 1}.`);
    };
    $("old-draft-discard").onclick = () => {
      clearDraft(data.pageId);
      done("Discarded the older draft.");
    };
  }

  return { current, dirty, showDirty, keep, restore };
}
