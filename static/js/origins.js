// Where each line of the gold came from, kept as the annotator works: the provenance a save records
// (webapp/annotation/provenance.py). Every change of the editor's text is a change of its lines; the lines
// both texts have (matched in order: a longest common subsequence of whole lines) keep their origin, and
// the new ones get the origin of the change: the one the annotate view names for a change from the page
// ("block") or a candidate ("candidate:NAME"), or, for typing, "edited" (a line that took the place of an
// old one, changed by typing) or "typed" (a new line, or one typed over a blank one). A text seen before
// (Ctrl+Z, redo, an undo button) gets back the origins it had, so undo keeps them right.

export const TYPED = "typed", EDITED = "edited";
const MAX_CELLS = 4_000_000; // past this, the changed middle of two texts is taken as replaced whole
const REMEMBERED = 200; // texts whose origins are kept for undo and redo

const linesOf = (text) => text.split("\n");

// For each line of `after`, the index of the same line in `before` it is matched to, or -1: the common
// prefix and suffix first (a keystroke changes one line), then a longest common subsequence of the rest.
export function matchLines(before, after) {
  const matched = new Array(after.length).fill(-1);
  let start = 0;
  while (start < before.length && start < after.length && before[start] === after[start]) {
    matched[start] = start;
    start++;
  }
  let endBefore = before.length, endAfter = after.length;
  while (endBefore > start && endAfter > start && before[endBefore - 1] === after[endAfter - 1]) {
    matched[--endAfter] = --endBefore;
  }
  const n = endBefore - start, m = endAfter - start;
  if (!n || !m || n * m > MAX_CELLS) return matched;
  // lengths[i][j]: the LCS of before[start+i..] and after[start+j..], one flat table
  const width = m + 1;
  const lengths = new Uint32Array((n + 1) * width);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lengths[i * width + j] = before[start + i] === after[start + j]
        ? lengths[(i + 1) * width + j + 1] + 1
        : Math.max(lengths[(i + 1) * width + j], lengths[i * width + j + 1]);
    }
  }
  let i = 0, j = 0;
  while (i < n && j < m) {
    if (before[start + i] === after[start + j]) { matched[start + j] = start + i; i++; j++; }
    else if (lengths[(i + 1) * width + j] >= lengths[i * width + j + 1]) i++;
    else j++;
  }
  return matched;
}

// The origins of `after`'s lines, given `before`'s lines and their origins: matched lines keep theirs; the
// new lines between two matched ones get `origin` when the change names one, else (typing) the k-th new
// line takes the place of the k-th old line there: "edited" (or "typed" when the old line was typed or
// blank), and the new lines beyond the old ones are "typed".
export function carry(before, origins, after, origin = null) {
  const matched = matchLines(before, after);
  const result = new Array(after.length);
  let from = 0; // the first line of `before` after the last matched one
  let at = 0;
  while (at < after.length) {
    if (matched[at] !== -1) {
      result[at] = origins[matched[at]];
      from = matched[at] + 1;
      at++;
      continue;
    }
    let end = at;
    while (end < after.length && matched[end] === -1) end++;
    const upTo = end < after.length ? matched[end] : before.length; // the old lines replaced: [from, upTo)
    for (let k = at; k < end; k++) {
      const old = from + (k - at);
      if (origin !== null) result[k] = origin;
      else if (old < upTo) result[k] = origins[old] === TYPED || !before[old].trim() ? TYPED : EDITED;
      else result[k] = TYPED;
    }
    at = end;
  }
  return result;
}

// The origins of the editor's text as it changes. `text` and `origins` (one per line; absent or of
// another length: every line `fallback`) are where the editor starts.
export function originTracker(text, origins, fallback = "prefill") {
  let lines = linesOf(text), now = [], last = text;
  const seen = new Map();

  function remember() {
    seen.delete(last);
    seen.set(last, now);
    if (seen.size > REMEMBERED) seen.delete(seen.keys().next().value);
  }

  function reset(next, given, otherwise = fallback) {
    last = next;
    lines = linesOf(next);
    now = Array.isArray(given) && given.length === lines.length ? [...given] : lines.map(() => otherwise);
    remember();
  }

  // The editor's text is now `next`: by a change whose new lines come from `origin` (null: typing, an
  // undo or redo).
  function change(next, origin = null) {
    if (next === last) return;
    const after = linesOf(next);
    now = origin === null && seen.has(next) ? [...seen.get(next)] : carry(lines, now, after, origin);
    lines = after;
    last = next;
    remember();
  }

  reset(text, origins);
  return {
    change,
    reset,
    // One origin per line of `text` (the editor's text when it is saved), caught up if a change was missed.
    of(text) {
      change(text);
      return [...now];
    },
  };
}
