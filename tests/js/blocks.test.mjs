// Unit tests of static/js/blocks.js with node:test on a small fake DOM (elements and text nodes linked
// as the parser links them). That the blocks' texts equal Python's block_lines on real pages is checked in
// Chromium by tests/corpus/test_visible_text.py; here: which element holds each block, and the gold's lines.
import assert from "node:assert/strict";
import { test } from "node:test";

import { blocksOf, normalise } from "../../static/js/blocks.js";
import { el } from "./fake_dom.mjs";

// The shape of webapp.corpus.visible_text.browser_rules(), cut down to the tags used here.
const RULES = {
  blocks: ["body", "div", "html", "p", "tr"], cells: ["td"], lineBreaks: ["br"], invisible: ["script"],
  hiddenAttribute: "hidden", hiddenStyle: "display\\s*:\\s*none|visibility\\s*:\\s*hidden",
};

const doc = (body) => ({ documentElement: el("html", {}, el("body", {}, ...body)) });

test("a paragraph is a block on its own: its owner holds all of it", () => {
  const p = el("p", {}, "One ", el("b", {}, "bold"), "\n word");
  const [block] = blocksOf(doc([p]), RULES);
  assert.deepEqual([block.text, block.owner, block.whole, block.nodes.length], ["One bold word", p, true, 3]);
});

test("a div's own text and its <br><br> runs are blocks that share the div", () => {
  const inner = el("p", {}, "Para");
  const div = el("div", {}, "Intro", inner, "Run one", el("br", {}), el("br", {}), "Run ", el("i", {}, "two"));
  const blocks = blocksOf(doc([div]), RULES);
  assert.deepEqual(blocks.map((b) => [b.text, b.owner === div ? "div" : "p", b.whole]),
    [["Intro", "div", false], ["Para", "p", true], ["Run one", "div", false], ["Run two", "div", false]]);
});

test("cells are spaces in their row's line; hidden and invisible content gives no text", () => {
  const row = el("tr", {}, el("td", {}, "a"), el("td", {}, "b"));
  const blocks = blocksOf(doc([row, el("p", {}, "x", el("span", { style: "DISPLAY: none" }, "gone"),
    el("script", {}, "code()"), "y"), el("div", { hidden: "" }, "secret")]), RULES);
  assert.deepEqual(blocks.map((b) => [b.text, b.whole]), [["a b", true], ["xy", true]]);
});

test("a document deeper than the call stack allows is walked", () => {
  let inner = el("p", {}, "deep");
  for (let depth = 0; depth < 100000; depth++) inner = el("span", {}, inner);
  assert.deepEqual(blocksOf(doc([inner]), RULES).map((b) => b.text), ["deep"]);
});

test("normalise collapses what Python's str.split() splits on, and nothing else", () => {
  assert.equal(normalise(" a\u00a0\u2003b\u001f\u0085c\n"), "a b c");
  assert.equal(normalise("\ufeffa"), "\ufeffa");
});
