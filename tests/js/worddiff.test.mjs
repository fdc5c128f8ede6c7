// Unit tests of static/js/worddiff.js (the candidate-against-gold diff of the annotate view) and of the
// key matching in static/js/keys.js, with node:test.
import assert from "node:assert/strict";
import { test } from "node:test";

import { keyName, matches } from "../../static/js/keys.js";
import { diff, words } from "../../static/js/worddiff.js";

// Applying the script to `a` must give `b`: "=" and "+" runs are b's words in order, "=" and "-" are a's.
function sides(ops) {
  const from = ops.filter((o) => o.op !== "+").flatMap((o) => o.items);
  const to = ops.filter((o) => o.op !== "-").flatMap((o) => o.items);
  return { from, to };
}

test("words keep line breaks as words of their own and drop other spacing", () => {
  assert.deepEqual(words("One  two\nthree\t four"), ["One", "two", "\n", "three", "four"]);
  assert.deepEqual(words("   "), []);
});

test("identical texts are one unchanged run", () => {
  const a = words("the harbour reopens today");
  assert.deepEqual(diff(a, a), [{ op: "=", items: a }]);
});

test("an insertion and a deletion are reported where they happen", () => {
  const ops = diff(words("the harbour reopens today"), words("the old harbour reopens"));
  assert.deepEqual(ops, [
    { op: "=", items: ["the"] },
    { op: "+", items: ["old"] },
    { op: "=", items: ["harbour", "reopens"] },
    { op: "-", items: ["today"] },
  ]);
});

test("the script always turns one side into the other", () => {
  const cases = [
    ["", "a b c"],
    ["a b c", ""],
    ["Menu Home\nStory one\nFooter", "Story one\nStory two"],
    ["x y x y x", "y x y"],
    ["a b c d e f", "f e d c b a"],
  ];
  for (const [left, right] of cases) {
    const a = words(left);
    const b = words(right);
    assert.deepEqual(sides(diff(a, b)), { from: a, to: b }, `${left} -> ${right}`);
  }
});

test("runs of the same pageType are merged, never adjacent", () => {
  const ops = diff(words("a b c d e f g"), words("a x y d z g"));
  for (let i = 1; i < ops.length; i++) assert.notEqual(ops[i].op, ops[i - 1].op);
});

test("a long text with one changed word is diffed as one change, not replaced", () => {
  const base = Array.from({ length: 5000 }, (_, i) => `w${i}`);
  const changed = [...base];
  changed[2500] = "changed";
  const ops = diff(base, changed);
  const edits = ops.filter((o) => o.op !== "=").flatMap((o) => o.items);
  assert.deepEqual(edits.sort(), ["changed", "w2500"]);
});

test("a shortcut matches its key, and Ctrl and Shift only when it asks for them", () => {
  const undo = { keys: ["z"], ctrl: true };
  assert.equal(matches(undo, { key: "z", ctrlKey: true, shiftKey: false, metaKey: false, altKey: false }), true);
  assert.equal(matches(undo, { key: "z", ctrlKey: false, shiftKey: false, metaKey: false, altKey: false }), false);
  const next = { keys: ["n"] };
  assert.equal(matches(next, { key: "n", ctrlKey: false, shiftKey: false, metaKey: false, altKey: false }), true);
  assert.equal(matches(next, { key: "n", ctrlKey: true, shiftKey: false, metaKey: false, altKey: false }), false);
  assert.equal(keyName("z", true), "Ctrl+Z");
});
