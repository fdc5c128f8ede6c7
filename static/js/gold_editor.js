// The gold editor's text changed by the tools (a block click, a candidate, a draft, a notice's Undo): one
// undoable edit each (Ctrl+Z brings the old text back), the changed lines scrolled into view and selected,
// the focus given back where it was; and the origin of the lines a change from the page or a candidate
// brings (origins.js), which the editor's input listener reads (`arriving()`; null: typing, undo, redo).
export function goldEditor({ editor, byTool, origins }) {
  let arriving = null;

  // Replace the editor's text as one undoable edit; `reveal` (a character offset) is scrolled into view and
  // selected up to `revealEnd`. Returns the text from before.
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

  const lines = () => (editor.value ? editor.value.split("\n") : []);

  return { replaceText, replaceFrom, undoEdit, lines, arriving: () => arriving };
}
