// Keyboard shortcuts: one table drives both the handlers and the `?` overlay.
// Inputs that are not typed into: a key pressed on one of them is a shortcut.
const NOT_TYPED = new Set(["button", "checkbox", "color", "file", "hidden", "image", "radio", "range", "reset", "submit"]);

// Whether a key pressed on `target` is typing: in a text field, a textarea or editable content. A focused
// dropdown, button or link is not typing, so the shortcuts work there too.
export function isTyping(target) {
  if (!target) return false;
  if (target.isContentEditable || target.tagName === "TEXTAREA") return true;
  return target.tagName === "INPUT" && !NOT_TYPED.has(String(target.type).toLowerCase());
}

// shortcuts: [{keys: ["n"], label, run, ctrl?: true, shift?: true (with ctrl only: a letter's case says
// it otherwise), whileTyping?: true, when?: (event) => boolean}]; `blocked()` true stops every shortcut
// but those with `always` (a modal dialog is open). Returns the keydown handler, to be added to other
// documents too (the saved page's frame).
export function matches(shortcut, event) {
  const key = event.key.length === 1 && event.ctrlKey ? event.key.toLowerCase() : event.key;
  if (!shortcut.keys.includes(key) || Boolean(shortcut.ctrl) !== event.ctrlKey) return false;
  return !shortcut.ctrl || Boolean(shortcut.shift) === event.shiftKey;
}

export function bindShortcuts(shortcuts, blocked = () => false) {
  const handler = (event) => {
    if (event.altKey || event.metaKey) return;
    for (const shortcut of shortcuts) {
      if (!matches(shortcut, event)) continue;
      if (shortcut.when && !shortcut.when(event)) continue;
      if (blocked() && !shortcut.always) return;
      if (isTyping(event.target) && !shortcut.whileTyping) return;
      event.preventDefault();
      shortcut.run(event);
      return;
    }
  };
  document.addEventListener("keydown", handler);
  return handler;
}

const NAMES = { Escape: "Esc", " ": "Space" };

// How a key is written in the help and the guide: Ctrl+Shift+Z, Shift+D (an upper-case letter), Esc.
export function keyName(key, ctrl = false, shift = false) {
  const name = NAMES[key] ?? (/^[A-Z]$/.test(key) ? `Shift+${key}` : key);
  return (ctrl ? "Ctrl+" : "") + (shift ? "Shift+" : "") + (ctrl && key.length === 1 ? key.toUpperCase() : name);
}

export function renderHelp(shortcuts, table) {
  const rows = shortcuts.map(({ keys, ctrl, shift, label }) => {
    const row = document.createElement("tr");
    const keyCell = document.createElement("td");
    keys.forEach((key, index) => {
      if (index) keyCell.append(" ");
      const kbd = document.createElement("kbd");
      kbd.textContent = keyName(key, ctrl, shift);
      keyCell.append(kbd);
    });
    const labelCell = document.createElement("td");
    labelCell.textContent = label;
    row.append(keyCell, labelCell);
    return row;
  });
  table.replaceChildren(...rows);
}
