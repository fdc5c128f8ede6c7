// Unit tests of static/js/takes.js: a candidate's lines the gold lacks, by region, taken in at their place.
import assert from "node:assert/strict";
import { test } from "node:test";

import { apart, plainLines, unitLength } from "../../static/js/markdown_lines.js";
import { candidateLines, regions, replaceRegion, takeLines } from "../../static/js/takes.js";

const PAGE = ["Menu", "Title", "First.", "Second.", "Third.", "Footer"];

test("regions: between shared lines, what the candidate has and the gold lacks", () => {
  const gold = ["Title", "", "1st (typed)", "Third."];
  const candidate = candidateLines("Title\n\nFirst.\n Second. \nThird.\nSigned: Ann");
  assert.deepEqual(candidate, ["Title", "First.", "Second.", "Third.", "Signed: Ann"]);
  assert.deepEqual(regions(gold, candidate), [
    { candidate: [1, 3], gold: [2, 3], before: "Title" },
    { candidate: [4, 5], gold: [4, 4], before: "Third." },
  ]);
  assert.deepEqual(regions(["Title"], ["Title"]), []);
});

test("a taken line lands at its page block's place, a line not on the page after its candidate neighbour", () => {
  const candidate = ["Title", "Byline by Ann", "Second.", "Third."];
  assert.deepEqual(takeLines(["Title", "Third."], candidate, PAGE, [2]).lines, ["Title", "Second.", "Third."]);
  assert.deepEqual(takeLines(["Title", "Third."], candidate, PAGE, [1]).lines, ["Title", "Byline by Ann", "Third."]);
  const taken = takeLines(["Third."], candidate, PAGE, [0, 1, 2], new Set([4]));
  assert.deepEqual([taken.lines, taken.changed], [["Title", "Byline by Ann", "Second.", "Third."], 3]);
  assert.deepEqual([...taken.pinned].sort(), [1, 3, 4]); // the page's blocks taken are pinned, others kept
});

test("a region's lines are replaced by the candidate's version of it", () => {
  const gold = ["Title", "1st (typed)", "", "Third."];
  const candidate = ["Title", "First.", "Second.", "Third."];
  const [region] = regions(gold, candidate);
  assert.deepEqual(replaceRegion(gold, candidate, region),
    { lines: ["Title", "First.", "Second.", "", "Third."], at: 1, count: 2 });
});

test("with the gold as Markdown, a candidate's line is placed by its text and goes in as its Markdown", () => {
  const page = ["Fares", "Tickets are sold on board.", "Day Time"];
  const candidate = ["Fares", "Day Time"];
  const texts = [["## Fares"], ["| Day | Time |", "| --- | --- |"]];
  const gold = ["Tickets are sold on board."];
  const markdown = { plain: plainLines, apart, unit: unitLength, texts };
  const taken = takeLines(gold, candidate, page, [0, 1], new Set(), markdown);
  assert.deepEqual(taken.lines, ["## Fares", "Tickets are sold on board.", "", "| Day | Time |", "| --- | --- |"]);
  const region = { candidate: [1, 2], gold: [1, 2], before: "Fares" };
  assert.deepEqual(replaceRegion(["## Fares", "Old line"], candidate, region, texts),
    { lines: ["## Fares", "| Day | Time |", "| --- | --- |"], at: 1, count: 2 });
});
