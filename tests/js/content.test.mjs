// Unit tests of static/js/content.js, on the cases webapp/scoring/content_tokens.py is tested on.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { contentKey, lineTokens, tokens, within } from "../../static/js/content.js";

const CASES = JSON.parse(readFileSync(new URL("../data/content_cases.json", import.meta.url), "utf8"));

test("the same content in another form has the same tokens", () => {
  for (const [first, second] of CASES.same) assert.deepEqual(tokens(first), tokens(second), first);
});

test("other content has other tokens", () => {
  for (const [first, second] of CASES.different) assert.notDeepEqual(tokens(first), tokens(second), first);
});

test("a line's key", () => {
  for (const [line, key] of CASES.keys) assert.equal(contentKey(line), key, line);
});

test("a line without a letter or digit has no content", () => {
  assert.deepEqual(lineTokens("|---|---|"), []);
  assert.deepEqual(lineTokens("---"), []);
});

test("within finds a run of tokens across line splits, whole tokens only", () => {
  const inGold = within("Name: Ann\n- Age: 41\nCity: Oslo");
  assert.ok(inGold("Age : 41 City: Oslo") && inGold("* age: 41"));
  assert.ok(!inGold("Age: 14") && !inGold("Agenda") && !inGold("---"));
  assert.ok(within("Name: Ann Smith", 3)("name : ann smith") && !within("Name: Ann Smith", 4)("name : ann smith"));
});
