// Unit tests of static/js/metadata_fields.js's pure parts: a field's value shown in its input and read back
// (authors split at ";"), the three states of a field (a value, none on the page, not annotated) as the save
// sends them with their origins, and the next candidate value a key takes.
import assert from "node:assert/strict";
import { test } from "node:test";

import { metadataOf, nextCandidate, originsOf, readValue, shownValue, startState } from "../../static/js/metadata_fields.js";

test("authors are shown joined by ; and read back one name each, whitespace collapsed", () => {
  assert.equal(shownValue("authors", ["Ann Lee", "Bo Chen"]), "Ann Lee; Bo Chen");
  assert.deepEqual(readValue("authors", " Ann   Lee ;; Bo Chen; "), ["Ann Lee", "Bo Chen"]);
  assert.equal(readValue("authors", " ; "), null);
  assert.equal(readValue("title", "  A   title "), "A title");
  assert.equal(shownValue("published", null), "");
});

test("a value, none on the page and not annotated are three different things in a save", () => {
  const states = {
    title: startState("title", { title: "T", authors: null }, { title: "candidate:density" }),
    authors: startState("authors", { title: "T", authors: null }, {}),
    published: startState("published", { title: "T", authors: null }, {}),
  };
  assert.deepEqual(metadataOf(states), { title: "T", authors: null });
  assert.deepEqual(originsOf(states), { title: "candidate:density", authors: "none" });
  states.title = { kind: "value", value: null, origin: "typed" }; // its input emptied: not annotated
  assert.deepEqual(metadataOf(states), { authors: null });
});

test("each press takes the next candidate value, cycling, and the first when none is chosen", () => {
  const values = [{ value: "2024-03-11", names: ["a"] }, { value: "2024-03-01", names: ["b"] }, { value: null, names: ["c"] }];
  assert.equal(nextCandidate(values, "2024-03-11").value, "2024-03-01");
  assert.equal(nextCandidate(values, null).names[0], "a");
  assert.equal(nextCandidate(values, "1999-01-01").names[0], "a");
  assert.equal(nextCandidate([], "x"), null);
});
