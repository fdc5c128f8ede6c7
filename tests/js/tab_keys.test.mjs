import assert from "node:assert/strict";
import { test } from "node:test";

import { WINDOW_MS, pick, tabKey, tabKeys } from "../../static/js/tab_keys.js";

function typed(count, keys) {
  // keys: [[key, ms since the start], ...]; returns the tabs selected, in order
  const chosen = [];
  let now = 0;
  const press = tabKeys(() => count, (index) => chosen.push(index), () => now);
  for (const [key, at] of keys) {
    now = at;
    press(key);
  }
  return chosen;
}

test("a single digit picks its tab, 0 the tenth", () => {
  assert.deepEqual(pick("3", 0, null, 19), { index: 2, paired: false });
  assert.deepEqual(pick("0", 0, null, 19), { index: 9, paired: false });
  assert.deepEqual(pick("0", 0, null, 9), { index: -1, paired: false });
  assert.deepEqual(pick("7", 0, null, 5), { index: -1, paired: false });
});

test("two digits in time pick the tabs past the tenth, the first one shown on the way", () => {
  assert.deepEqual(typed(19, [["1", 0], ["2", 300]]), [0, 11]);
  assert.deepEqual(typed(19, [["1", 0], ["9", WINDOW_MS]]), [0, 18]);
  assert.deepEqual(typed(19, [["1", 0], ["0", 100]]), [0, 9]);
});

test("a second digit too late, or past the last tab, is a digit of its own", () => {
  assert.deepEqual(typed(19, [["1", 0], ["2", WINDOW_MS + 1]]), [0, 1]);
  assert.deepEqual(typed(19, [["2", 0], ["3", 100]]), [1, 2]);
  assert.deepEqual(typed(12, [["1", 0], ["5", 100]]), [0, 4]);
});

test("a pair is used up: a third digit starts again", () => {
  assert.deepEqual(typed(19, [["1", 0], ["1", 100], ["1", 200]]), [0, 10, 0]);
  assert.deepEqual(typed(19, [["0", 0], ["5", 100]]), [9, 4]);
});

test("tabs are shown with their key", () => {
  assert.deepEqual([0, 8, 9, 10, 18].map(tabKey), ["1", "9", "0", "11", "19"]);
});
