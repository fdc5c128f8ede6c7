// Keyboard shortcuts: one table drives both the handlers and the `?` overlay.
export function isTyping(target) {
  return Boolean(target && (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName)));
}

// shortcuts: [{keys: ["n"], label, run, ctrl?: true, whileTyping?: true}]; returns the keydown handler,
// to be added to other documents too (the saved page's frame).
export function bindShortcuts(shortcuts) {
  const handler = (event) => {
    if (event.altKey || event.metaKey) return;
    for (const shortcut of shortcuts) {
      if (!shortcut.keys.includes(event.key.length === 1 && event.ctrlKey ? event.key.toLowerCase() : event.key)) continue;
      if (Boolean(shortcut.ctrl) !== event.ctrlKey) continue;
      if (isTyping(event.target) && !shortcut.whileTyping) return;
      event.preventDefault();
      shortcut.run(event);
      return;
    }
  };
  document.addEventListener("keydown", handler);
  return handler;
}

export function renderHelp(shortcuts, table) {
  const rows = shortcuts.map(({ keys, ctrl, label }) => {
    const row = document.createElement("tr");
    const keyCell = document.createElement("td");
    keys.forEach((key, index) => {
      if (index) keyCell.append(" ");
      const kbd = document.createElement("kbd");
      kbd.textContent = (ctrl ? "Ctrl+" : "") + (ctrl ? key.toUpperCase() : key);
      keyCell.append(kbd);
    });
    const labelCell = document.createElement("td");
    labelCell.textContent = label;
    row.append(keyCell, labelCell);
    return row;
  });
  table.replaceChildren(...rows);
}
