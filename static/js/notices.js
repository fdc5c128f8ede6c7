// The notices above the gold editor. One with a `key` replaces the earlier one with that key, and at most
// MAX_NOTICES stay (the oldest go), so notices never pile up; each can be closed.
const MAX_NOTICES = 3;

// `box`: the notices' element; `editor`: the gold editor, whose text an undo notice follows.
export function noticeBoard(box, editor) {
  function notice(text, action, key) {
    if (key) box.querySelector(`.notice[data-key="${key}"]`)?.remove();
    const p = document.createElement("p");
    p.className = "notice";
    if (key) p.dataset.key = key;
    const said = document.createElement("span");
    said.className = "notice-text";
    said.textContent = text;
    p.append(said, " ");
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

  // A notice of a change with its Undo (`undo()` puts back the text from before it), which follows the
  // editor: while the editor shows what the change made, it says the change and offers its Undo; once the
  // editor is back at the text from before it (Ctrl+Z), it says the change was undone; once the text moved
  // on otherwise, its Undo goes (it would take back more than the change). Its Undo pressed, it goes.
  function undoNotice(message, before, key, undo, label = "Undo (Ctrl+Z)") {
    const after = editor.value;
    const shown = notice(message, { label, run: undo }, key);
    const button = shown.querySelector("button:not(.notice-close)");
    const said = shown.querySelector(".notice-text");
    const follow = () => {
      if (!shown.isConnected) { editor.removeEventListener("input", follow); return; }
      const undone = editor.value === before && before !== after;
      said.textContent = undone ? `Undone: ${message}` : message;
      shown.classList.toggle("undone", undone);
      button.hidden = editor.value !== after;
    };
    editor.addEventListener("input", follow);
    return shown;
  }

  return { notice, undoNotice };
}
