// Unit tests of static/js/origins.js: each line's origin kept through clicks, takes, typing and undo.
import assert from "node:assert/strict";
import { test } from "node:test";

import { carry, matchLines, originTracker } from "../../static/js/origins.js";

test("lines both texts have are matched in order, repeated lines included", () => {
  assert.deepEqual(matchLines(["a", "b", "c"], ["a", "x", "c"]), [0, -1, 2]);
  assert.deepEqual(matchLines(["Read more", "b", "Read more"], ["Read more", "Read more"]), [0, 2]);
  assert.deepEqual(matchLines(["a", "b"], ["b", "a"]).filter((at) => at !== -1).length, 1);
  assert.deepEqual(matchLines([], ["a"]), [-1]);
});

test("a change from the page or a candidate gives its new lines its origin, the others keep theirs", () => {
  const before = ["Title", "First."];
  assert.deepEqual(carry(before, ["prefill", "prefill"], ["Title", "Menu", "First."], "block"),
    ["prefill", "block", "prefill"]);
  // a region replaced: the candidate's lines come in where the gold's were
  assert.deepEqual(carry(["T", "old 1", "old 2", "End"], ["prefill", "typed", "block", "prefill"],
    ["T", "new", "End"], "candidate:justext"), ["prefill", "candidate:justext", "prefill"]);
  // a line taken out: the others keep their origins
  assert.deepEqual(carry(["a", "b", "c"], ["block", "prefill", "typed"], ["a", "c"], "block"), ["block", "typed"]);
});

test("typing: a changed line is edited, a new or blank-filled line typed, a typed line stays typed", () => {
  const origins = ["prefill", "block", "prefill"];
  assert.deepEqual(carry(["a", "b", "c"], origins, ["a", "b!", "c"]), ["prefill", "edited", "prefill"]);
  assert.deepEqual(carry(["a", "b", "c"], origins, ["a", "b", "c", "d"]), ["prefill", "block", "prefill", "typed"]);
  assert.deepEqual(carry(["a", "b"], ["prefill", "prefill"], ["a", "b", ""]), ["prefill", "prefill", "typed"]);
  assert.deepEqual(carry(["a", ""], ["prefill", "typed"], ["a", "x"]), ["prefill", "typed"]);
  assert.deepEqual(carry(["a", ""], ["prefill", "prefill"], ["a", "x"]), ["prefill", "typed"]); // over a blank line
  assert.deepEqual(carry(["a", "xy"], ["prefill", "typed"], ["a", "xyz"]), ["prefill", "typed"]);
  // Enter in the middle of a line: its first part edited, the rest a new line
  assert.deepEqual(carry(["one two"], ["prefill"], ["one", " two"]), ["edited", "typed"]);
});

test("the tracker follows the editor's text, and an undone change gets its origins back", () => {
  const tracker = originTracker("Title\nBody", null);
  assert.deepEqual(tracker.of("Title\nBody"), ["prefill", "prefill"]);
  tracker.change("Title\nMenu\nBody", "block");
  tracker.change("Title\nMenu\nBody\nSigned", "candidate:trafilatura");
  tracker.change("Title\nMenu\nBody\nSigned\nMy line");
  assert.deepEqual(tracker.of("Title\nMenu\nBody\nSigned\nMy line"),
    ["prefill", "block", "prefill", "candidate:trafilatura", "typed"]);
  tracker.change("Title\nMenu\nBody\nSigned"); // Ctrl+Z
  tracker.change("Title\nMenu\nBody"); // Ctrl+Z
  tracker.change("Title\nMenu\nBody\nSigned"); // Ctrl+Shift+Z: the taken line is the candidate's again
  assert.deepEqual(tracker.of("Title\nMenu\nBody\nSigned"), ["prefill", "block", "prefill", "candidate:trafilatura"]);
  tracker.change("Title\nBody"); // back to the start
  assert.deepEqual(tracker.of("Title\nBody"), ["prefill", "prefill"]);
  // a change it was not told of is caught up when the origins are read
  assert.deepEqual(tracker.of("Title\nBody\nMore"), ["prefill", "prefill", "typed"]);
});

test("reset starts again from given origins, or every line the fallback when they do not fit", () => {
  const tracker = originTracker("", null, "typed");
  assert.deepEqual(tracker.of(""), ["typed"]);
  tracker.reset("a\nb", ["gold", "gold"]);
  assert.deepEqual(tracker.of("a\nb"), ["gold", "gold"]);
  tracker.reset("a\nb\nc", ["gold"], "gold");
  assert.deepEqual(tracker.of("a\nb\nc"), ["gold", "gold", "gold"]);
});
