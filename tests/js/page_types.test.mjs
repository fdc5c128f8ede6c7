// Unit tests of static/js/types.js: the annotate view's page-type keys, matched as the page matches them
// (static/js/keys.js), with node:test.
import assert from "node:assert/strict";
import { test } from "node:test";

import { matches } from "../../static/js/keys.js";
import { TYPE_KEYS, pageTypeShortcuts } from "../../static/js/page_types.js";

const DEFAULT_TYPES = ["article", "forum", "product", "collection", "listing", "documentation", "service",
  "js-shell", "wall", "error", "other"];
// The annotate view's other single keys (static/js/annotate.js): a type key must be none of them.
const TAKEN = ["n", "p", "D", "Enter", "Escape", "f", "c", "1", "2", "3", "4", "5", "6", "7", "8", "9", "u", "b",
  "d", "s", "i", "e", "?"];

const press = (key) => ({ key, ctrlKey: false, shiftKey: false, metaKey: false, altKey: false });

// The menu as the page renders it, with a type configured beyond the default taxonomy.
const menu = [...DEFAULT_TYPES, "recipe"].map((value) => ({ value, textContent: ` ${value} ` }));

function pick(key) {
  let chosen = null;
  const shortcut = pageTypeShortcuts(menu, (value) => { chosen = value; }).find((s) => matches(s, press(key)));
  shortcut?.run();
  return chosen;
}

test("every type of the default taxonomy has its own key, taken by no other shortcut", () => {
  assert.deepEqual(Object.keys(TYPE_KEYS).sort(), [...DEFAULT_TYPES].sort());
  const keys = Object.values(TYPE_KEYS);
  assert.equal(new Set(keys).size, keys.length);
  assert.deepEqual(keys.filter((key) => TAKEN.includes(key)), []);
});

test("a key chooses its page type", () => {
  assert.equal(pick("m"), "forum");
  assert.equal(pick("r"), "product");
  assert.equal(pick("x"), "error");
  assert.equal(pick("a"), "article");
  assert.equal(pick("q"), null);
});

test("a shortcut is labelled with the menu's words, and a configured type without a key gets none", () => {
  const shortcuts = pageTypeShortcuts(menu, () => {});
  assert.equal(shortcuts.length, DEFAULT_TYPES.length);
  assert.equal(shortcuts.find((s) => s.keys[0] === "h").label, "page type: documentation");
  assert.equal(shortcuts.some((s) => s.label.includes("recipe")), false);
});
