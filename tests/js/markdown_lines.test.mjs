// Unit tests of static/js/markdown_lines.js on a small fake DOM (fake_dom.mjs): the plain
// text of the editor's Markdown lines, and a clicked block's Markdown.
import assert from "node:assert/strict";
import { test } from "node:test";

import { apart, blockMarkdown, escaped, markdownUnits, plainLines, plainOfLine, tableSpan } from "../../static/js/markdown_lines.js";
import { el } from "./fake_dom.mjs";

test("a line's plain text drops its markup", () => {
  assert.equal(plainOfLine("## Fares and times ##"), "Fares and times");
  assert.equal(plainOfLine("  - a **bold** and _light_ item"), "a bold and light item");
  assert.equal(plainOfLine("1. the [first](https://x.example) step ![pic](p.png)"), "the first step");
  assert.equal(plainOfLine("> quoted `code`"), "quoted code");
  assert.equal(plainOfLine("| Day | Time |"), "Day Time");
  assert.equal(plainOfLine("| --- | :---: |"), "");
  assert.equal(plainOfLine("Price \\*not\\* 5 \\# \\- 3"), "Price *not* 5 # - 3");
  assert.equal(plainOfLine("snake_case_name stays"), "snake_case_name stays");
});

test("escaping keeps a flat line's text, as markdown_text.py does", () => {
  for (const line of ["# not a heading", "1. not a list", "- nor this", "*stars* [x](y) <b> | $5 \\ done"]) {
    assert.equal(plainOfLine(escaped(line)), line);
  }
});

test("a fenced block is aligned on its opening line, with its code", () => {
  const lines = ["Intro", "```python", "x = 1", "", "print(x)", "```", "After"];
  assert.deepEqual(plainLines(lines), ["Intro", "x = 1 print(x)", "", "", "", "", "After"]);
  assert.deepEqual(plainLines(["```", "open = True"]), ["open = True", ""]);
});

test("a heading, a nested list item and a quote keep their structure", () => {
  const h3 = el("h3", {}, "Tickets");
  const inner = el("li", {}, "child");
  const outer = el("ul", {}, el("li", {}, "parent", el("ol", {}, inner)));
  el("body", {}, h3, outer);
  assert.deepEqual(blockMarkdown(h3, "Tickets"), ["### Tickets"]);
  assert.deepEqual(blockMarkdown(inner, "child"), ["  1. child"]);
  const p = el("p", {}, "# wise words");
  el("blockquote", {}, p);
  assert.deepEqual(blockMarkdown(p, "# wise words"), ["> \\# wise words"]);
});

test("a pre is a fenced block with its language and line breaks", () => {
  const code = el("code", { class: "language-js" }, "let a = 1;\n", "a += 2;\n");
  const pre = el("pre", {}, code);
  el("body", {}, pre);
  assert.deepEqual(blockMarkdown(pre, "let a = 1; a += 2;"), ["```js", "let a = 1;", "a += 2;", "```"]);
  const ticks = el("pre", {}, "use ``` to fence");
  assert.deepEqual(blockMarkdown(ticks, "use ``` to fence"), ["````", "use ``` to fence", "````"]);
});

test("a cell clicked takes the whole table, in GFM or as HTML when a cell spans", () => {
  const cell = el("td", {}, "10:15");
  const table = el("table", {}, el("tbody", {}, el("tr", {}, el("th", {}, "Day"), el("th", {}, "Time")),
    el("tr", {}, el("td", {}, "Mon | Tue"), cell)));
  el("body", {}, table);
  assert.deepEqual(blockMarkdown(cell, "10:15"), ["| Day | Time |", "| --- | --- |", "| Mon \\| Tue | 10:15 |"]);
  const spanning = el("td", { rowspan: "2" }, "A & B");
  const html = el("table", {}, el("tr", {}, spanning, el("td", {}, "x")), el("tr", {}, el("td", {}, "y")));
  assert.deepEqual(blockMarkdown(spanning, "A & B"),
    ["<table>", '<tr><td rowspan="2">A &amp; B</td><td>x</td></tr>', "<tr><td>y</td></tr>", "</table>"]);
  assert.deepEqual(plainLines(blockMarkdown(cell, "10:15")), ["Day Time", "", "Mon | Tue 10:15"]);
});

test("a block clicked in goes in as its Markdown, apart from paragraphs, and out with its whole fence", async () => {
  const { toggleBlock } = await import("../../static/js/align.js");
  const { apart, unitLength } = await import("../../static/js/markdown_lines.js");
  const blocks = ["Fares", "Tickets on board.", "x = 1 y = 2"];
  const lines = ["Tickets on board."];
  const heading = toggleBlock(lines, blocks, 0, { text: ["## Fares"], plain: plainLines, apart, unit: unitLength });
  assert.deepEqual(heading.lines, ["## Fares", "Tickets on board."]);
  const code = toggleBlock(heading.lines, blocks, 2,
    { text: ["```", "x = 1", "y = 2", "```"], plain: plainLines, apart, unit: unitLength });
  assert.deepEqual(code.lines, ["## Fares", "Tickets on board.", "", "```", "x = 1", "y = 2", "```"]);
  const out = toggleBlock(code.lines, blocks, 2, { plain: plainLines, apart, unit: unitLength });
  assert.deepEqual(out.lines, ["## Fares", "Tickets on board."]);
  assert.equal(apart("- one", "- two"), false);
  assert.equal(apart("| a |", "| b |"), false);
  assert.equal(apart("Text", "| a |"), true);
});

test("a blank line only where Markdown would join two blocks", () => {
  assert.equal(apart("Text", "More text"), false); // a line of a paragraph is a line
  assert.equal(apart("## Fares", "Text"), false);
  assert.equal(apart("Text", "- item"), false); // a list interrupts a paragraph
  assert.equal(apart("- item", "Text"), true); // the text would continue the item
  assert.equal(apart("> quoted", "Text"), true);
  assert.equal(apart("- item", "## Next"), false);
  assert.equal(apart("| a |", "Text"), true);
  assert.equal(apart("</table>", "Text"), true);
  assert.equal(apart("<tr><td>a</td></tr>", "</table>"), false);
  assert.equal(apart("Text", "```"), true);
});

test("a table's span, and a text's units as the lines to take", () => {
  const lines = ["Intro", "", "| a | b |", "| --- | --- |", "| 1 | 2 |", "", "<table>", "<tr><td>x &amp; y</td></tr>", "</table>"];
  assert.deepEqual(tableSpan(lines, 3), [2, 5]);
  assert.deepEqual(tableSpan(lines, 7), [6, 9]);
  assert.equal(tableSpan(lines, 0), null);
  const units = markdownUnits(["# T", ...lines, "```py", "x = 1", "", "y = 2", "```"].join("\n"));
  assert.deepEqual(units.map((unit) => [unit.lines.length, unit.plain]),
    [[1, "T"], [1, "Intro"], [2, "a b"], [1, "1 2"], [3, "x & y"], [5, "x = 1 y = 2"]]);
});
