// Unit tests of static/js/align.js: gold lines matched to blocks by order, a block's line in and out of
// the gold at its place, and one sequence merged into another. The cases of tests/data/alignment/cases.json
// are the ones webapp/corpus/alignment.py is tested on (and both are run side by side in Chromium).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { align, merge, removeLine, setBlocks, toggleBlock } from "../../static/js/align.js";

const CASES = JSON.parse(readFileSync(new URL("../data/alignment/cases.json", import.meta.url), "utf-8"));

for (const { case: name, lines, blocks, pinned = [], aligned } of CASES) {
  test(`align: ${name}`, () => assert.deepEqual(align(lines, blocks, new Set(pinned)), aligned));
}

const put = (lines, blocks, index) => toggleBlock(lines, blocks, index).lines;

test("a block goes in after the line of the block before it, before the line of the one after, or at the end", () => {
  const blocks = ["A", "B", "C"];
  assert.deepEqual(put(["A", "C"], blocks, 1), ["A", "B", "C"]);
  assert.deepEqual(put(["C", "typed by hand"], blocks, 0), ["A", "C", "typed by hand"]);
  assert.deepEqual(put(["typed by hand"], blocks, 1), ["typed by hand", "B"]);
  assert.deepEqual(put(["A", " B  "], blocks, 1), ["A"]);
});

test("a repeated text goes in at its own copy's place and out as its own line only", () => {
  const blocks = ["Layout", "Text", "Widgets", "Layout", "Grids.", "Text", "Fonts."];
  // the card "Text" (5) clicked: after "Grids.", not at the top where the menu's "Text" is
  assert.deepEqual(put(["Widgets", "Layout", "Grids.", "Fonts."], blocks, 5),
    ["Widgets", "Layout", "Grids.", "Text", "Fonts."]);
  // the menu's "Layout" (0) clicked while the card's is in the gold: it goes in at the top, a line of its own
  assert.deepEqual(put(["Widgets", "Layout", "Grids."], blocks, 0), ["Layout", "Widgets", "Layout", "Grids."]);
  // ... and clicked again, that line goes out, the card's stays
  assert.deepEqual(put(["Layout", "Widgets", "Layout", "Grids."], blocks, 0), ["Widgets", "Layout", "Grids."]);
  assert.deepEqual(put(["Layout", "Widgets", "Layout", "Grids."], blocks, 3), ["Layout", "Widgets", "Grids."]);
});

test("two identical lines: the one clicked goes out", () => {
  const blocks = ["One", "Read more", "Two", "Read more"];
  assert.deepEqual(put(["One", "Read more", "Two", "Read more"], blocks, 3), ["One", "Read more", "Two"]);
  assert.deepEqual(put(["One", "Read more", "Two", "Read more"], blocks, 1), ["One", "Two", "Read more"]);
  assert.deepEqual(put(["One", "Two"], blocks, 3), ["One", "Two", "Read more"]);
  assert.deepEqual(put(["One", "Two", "Read more"], blocks, 1), ["One", "Read more", "Two", "Read more"]);
});

test("the gold's blank lines are kept", () => {
  const blocks = ["A", "B", "C"];
  assert.deepEqual(put(["A", "", "C", ""], blocks, 1), ["A", "B", "", "C", ""]);
  assert.deepEqual(put(["", "C"], blocks, 0), ["", "A", "C"]);
  // out from between two blank lines: one of them goes along, the paragraphs stay one blank line apart
  assert.deepEqual(put(["A", "", "B", "", "C"], blocks, 1), ["A", "", "C"]);
  assert.deepEqual(put(["A", "", "B"], blocks, 1), ["A", ""]);
  assert.deepEqual(put(["B", "", "C"], blocks, 1), ["", "C"]);
  assert.deepEqual(removeLine(["A", "", "B", "", "C"], 2), ["A", "", "C"]);
});

test("setBlocks takes a range in at its places, or out, and counts what changed", () => {
  const blocks = ["Menu", "A", "B", "C", "D"];
  const taken = setBlocks(["A", "D"], blocks, [1, 2, 3], true);
  assert.deepEqual([taken.lines, taken.changed, [...taken.pinned]], [["A", "B", "C", "D"], 2, [1, 2, 3]]);
  const out = setBlocks(["A", "B", "D"], blocks, [2, 3, 4], false, new Set([1, 2]));
  assert.deepEqual([out.lines, out.changed, [...out.pinned]], [["A"], 2, [1]]);
});

test("a clicked copy stays the line's block: two Read more clicked bottom-up are both in, in order", () => {
  const blocks = ["One", "Read more", "Two", "Read more"];
  let pinned = new Set([1]);
  let lines = toggleBlock([], blocks, 1, { pinned }).lines;
  assert.deepEqual(lines, ["Read more"]);
  assert.deepEqual(toggleBlock(lines, blocks, 3).lines, []); // unpinned, the lone line is the later copy
  lines = toggleBlock(lines, blocks, 3, { pinned }).lines;
  assert.deepEqual(lines, ["Read more", "Read more"]);
  pinned = new Set([1, 3]);
  assert.deepEqual(toggleBlock(lines, blocks, 2, { pinned }).lines, ["Read more", "Two", "Read more"]);
});

test("merge puts a line the base lacks right after the line before it", () => {
  const { sequence, positions, moved } = merge(["Menu", "Title", "Body", "Footer"], ["Title", "Byline", "Body", "Tail"]);
  assert.deepEqual(sequence, ["Menu", "Title", "Byline", "Body", "Tail", "Footer"]);
  assert.deepEqual(positions, [1, 2, 3, 4]);
  assert.deepEqual(moved, [0, 1, 3, 5]);
  assert.deepEqual(merge([], ["x"]).sequence, ["x"]);
});
