// Unit tests of static/js/effort.js: the active time leaves out idle gaps and the time the page was hidden,
// and typing is counted in words (runs of non-space characters) and whole lines deleted.
import assert from "node:assert/strict";
import { test } from "node:test";

import { clockText, effortCounter, textChanges } from "../../static/js/effort.js";

// A counter on a clock the test moves: `at(s)` is s seconds after the start.
function counter(text = "") {
  let now = 0;
  const effort = effortCounter({ idleSeconds: 60, text, clock: () => now });
  return { effort, at: (seconds) => { now = seconds * 1000; } };
}

test("gaps up to the idle setting count, a longer gap counts nothing", () => {
  const { effort, at } = counter();
  at(0); effort.active();
  at(10); effort.active(); // 10 s
  at(70); effort.active(); // a 60 s gap: counted (at most the setting)
  at(131); effort.active(); // 61 s: idle, not counted
  at(136); effort.active(); // 5 s
  at(500); // 364 s idle since: not counted by the save either
  assert.equal(effort.snapshot("").active_seconds, 75);
});

test("the time after the page is hidden or unfocused counts nothing until it is active again", () => {
  const { effort, at } = counter();
  at(0); effort.active();
  at(20); effort.pause(); // 20 s, then away
  at(50); effort.active(); // back after 30 s away: not counted
  at(55); effort.active();
  assert.equal(effort.seconds(), 25);
  at(58);
  assert.equal(effort.seconds(), 28); // the time since the last event counts while under the setting
});

test("a save's snapshot is subtracted once it is recorded; what came after is the next save's", () => {
  const { effort, at } = counter("One");
  at(0); effort.active();
  effort.count("block", 2);
  at(30); effort.active();
  const sent = effort.snapshot("One two");
  assert.deepEqual(sent, { active_seconds: 30, actions: { block: 2, typed_words: 1 } });
  effort.count("block");
  at(40); effort.active();
  effort.recorded(sent);
  assert.deepEqual(effort.snapshot("One two"), { active_seconds: 10, actions: { block: 1 } });
});

test("words are runs of non-space characters: typed, deleted and changed ones", () => {
  assert.deepEqual(textChanges("The cat sat.", "The black cat sat, twice."),
    { typed_words: 3, deleted_words: 1, line_deletions: 0 }); // black, sat, twice. for sat.
  assert.deepEqual(textChanges("", "  e-mail: a@b.org   (c)  "), { typed_words: 3, deleted_words: 0, line_deletions: 0 });
  assert.deepEqual(textChanges("One\nTwo words here\nThree", "One\nTwo here\nThree"),
    { typed_words: 0, deleted_words: 1, line_deletions: 0 });
  assert.deepEqual(textChanges("Same", "Same"), { typed_words: 0, deleted_words: 0, line_deletions: 0 });
});

test("a line deleted whole is one line deletion, not its words; a blank line is none", () => {
  assert.deepEqual(textChanges("Title\nMenu Home About\n\nBody text.\nFooter", "Title\nBody text."),
    { typed_words: 0, deleted_words: 0, line_deletions: 2 });
  assert.deepEqual(textChanges("A\nB\nC", "A\nC\nD"), { typed_words: 1, deleted_words: 0, line_deletions: 1 });
});

test("a tool's change is not typing, and the typing before it counts", () => {
  const { effort } = counter("One");
  let text = "One more"; // typed
  effort.tool(() => text, () => { text = "One more\nTaken line from a candidate"; });
  text += " edited"; // typed after the take
  assert.deepEqual(effort.snapshot(text).actions, { typed_words: 2 });
});

test("an unsaved effort kept with a draft is taken on, but only known actions and sound counts", () => {
  const { effort, at } = counter();
  effort.resume({ active_seconds: 12.5, actions: { block: 2, typed_words: 3, clicks: 9, take: -1, range: 1.5 } },
    ["block", "typed_words", "take", "range"]);
  effort.resume({ active_seconds: "lots", actions: null }, ["block"]);
  effort.resume(undefined, ["block"]);
  at(0);
  assert.deepEqual(effort.snapshot(""), { active_seconds: 12.5, actions: { block: 2, typed_words: 3 } });
});

test("clock text", () => {
  assert.deepEqual([clockText(0), clockText(42.4), clockText(55.6), clockText(3725)], ["0:00", "0:42", "0:56", "1:02:05"]);
});
