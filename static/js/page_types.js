// The annotate view's key for each page type of the default taxonomy (docs/annotating.md lists them). A
// type configured beyond these (the PAGE_TYPES setting) is chosen from the menu, without a key.
export const TYPE_KEYS = {
  article: "a", forum: "m", product: "r", collection: "g", listing: "l", documentation: "h", service: "v",
  "js-shell": "j", wall: "w", error: "x", other: "o",
};

// One shortcut per option of the page-type menu that has a key: `choose(value)` picks that type.
export function pageTypeShortcuts(options, choose) {
  return [...options].filter((option) => TYPE_KEYS[option.value]).map((option) => ({
    keys: [TYPE_KEYS[option.value]],
    label: `page type: ${option.textContent.trim()}`,
    run: () => choose(option.value),
  }));
}
