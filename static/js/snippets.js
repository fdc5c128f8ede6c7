// Snippet gold: must-include ("with") and must-exclude ("without") snippets, taken from a text selection in
// the rendered page or a candidate, listed, editable and removable. The `snippets` metric scores them.
export const KINDS = ["with", "without"];
export const LABELS = { with: "must-include", without: "must-exclude" };

const tidy = (text) => text.replace(/\s+/g, " ").trim();

// The selected text of a document, read through this realm's Document.prototype (a saved page can clobber
// its own document's getSelection).
export function selectedText(doc) {
  const read = globalThis.Document?.prototype.getSelection;
  try {
    return tidy(String((read ? read.call(doc) : doc?.getSelection?.()) ?? ""));
  } catch {
    return "";
  }
}

// lists: {with: <ul>, without: <ul>}; onChange runs after every edit. Returns the editor's handle.
export function snippetEditor(lists, initial, onChange) {
  const items = { with: [], without: [] };

  function row(kind, text, index) {
    const li = document.createElement("li");
    const input = document.createElement("input");
    input.type = "text";
    input.className = "snippet-text";
    input.value = text;
    input.setAttribute("aria-label", `${LABELS[kind]} snippet ${index + 1}`);
    input.addEventListener("input", () => { items[kind][index] = input.value; onChange(); });
    const remove = document.createElement("button");
    remove.type = "button";
    remove.className = "snippet-remove";
    remove.textContent = "Remove";
    remove.setAttribute("aria-label", `remove ${LABELS[kind]} snippet ${index + 1}`);
    remove.addEventListener("click", () => { items[kind].splice(index, 1); render(); onChange(); });
    li.append(input, remove);
    return li;
  }

  function render() {
    for (const kind of KINDS) lists[kind].replaceChildren(...items[kind].map((text, i) => row(kind, text, i)));
  }

  function set(value) {
    for (const kind of KINDS) items[kind] = [...(value?.[kind] || [])];
    render();
  }

  set(initial);
  return {
    set,
    // What a save sends: trimmed, blank ones left out (no snippet left clears the snippet gold).
    value: () => Object.fromEntries(KINDS.map((kind) => [kind, items[kind].map((s) => s.trim()).filter(Boolean)])),
    // Add a snippet of that kind, taking it out of the other list (a snippet is in one list only):
    // {added, moved} (moved: it was in the other list); added false when empty or already listed.
    add(kind, text) {
      const snippet = tidy(text);
      if (!snippet || items[kind].includes(snippet)) return { added: false, moved: false };
      const other = KINDS.find((k) => k !== kind);
      const moved = items[other].some((s) => tidy(s) === snippet);
      items[other] = items[other].filter((s) => tidy(s) !== snippet);
      items[kind].push(snippet);
      render();
      onChange();
      return { added: true, moved };
    },
  };
}
