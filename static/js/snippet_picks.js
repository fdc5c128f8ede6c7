// Snippet gold picked by selection: the text selected last, in the saved page or in a candidate's text (its
// diff or its lines to take), added as a must-include or must-exclude snippet (snippets.js keeps them).
import { LABELS, selectedText } from "./snippets.js";
import { short } from "./say.js";

// `view`: the annotate view's shared parts (annotate.js); `frame`: the saved page's iframe.
export function snippetPicks(view, frame) {
  const { $, snippets, notices } = view;
  let selectedLast = null; // the document where text was selected last (the saved page's or this one)
  const lastText = new Map(); // document -> its selected text when last seen

  // A snippet is never selected in the editor: a tool that shows a line selects it there (a block click
  // does), and that is no snippet.
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

  // The saved page's document, once loaded: its selections count too.
  function watch(doc, on) {
    on(doc, "selectionchange", () => noteSelection(doc));
    on(doc, "pointerdown", () => { selectedLast = doc; });
  }

  function add(which) {
    const text = [selectedLast, frame.contentDocument, document].map(snippetText).find(Boolean) ?? "";
    if (!text) {
      view.setSaveState("Select some text in the page or a candidate first, then add it as a snippet.", true);
      return;
    }
    const { added, moved } = snippets.add(which, text);
    if (!added) return;
    const other = which === "with" ? "without" : "with";
    notices.notice(moved ? `Moved “${short(text)}” from the ${LABELS[other]} to the ${LABELS[which]} snippets.`
      : `Added “${short(text)}” as a ${LABELS[which]} snippet.`, null, "snippet");
    view.setSaveState(`Added a ${LABELS[which]} snippet (not saved yet).`);
  }

  for (const [id, which] of [["add-with", "with"], ["add-without", "without"]]) {
    $(id).addEventListener("mousedown", (event) => event.preventDefault());
    $(id).addEventListener("click", () => add(which));
  }
  return { add, watch };
}
