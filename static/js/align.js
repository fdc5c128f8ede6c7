// Gold lines matched to a sequence of texts (the page's blocks, a candidate's lines) by their order: a
// monotone alignment, never the first text match. It is webapp/corpus/alignment.py's `align`, step for
// step (tests/corpus/test_visible_text.py checks in Chromium that both give the same answer): of the order-keeping
// matchings of equal normalised texts, one with the most matched lines, then the most pinned blocks (the
// copies the annotator clicked), then the fewest runs (stretches whose blocks follow one another, only
// unmatched lines between), later copies winning what is left.
// On top of it: where a block's line goes in the gold, a line taken out by its place, and a sequence
// merged into another (a candidate's lines into the page's blocks).
import { normalise } from "./blocks.js";

export const NONE = -1;

// For each line, the index of the block (in `blocks`, already normalised) it is matched to, or NONE;
// `pinned`: a set of block indexes preferred among copies of a text.
export function align(lines, blocks, pinned = new Set()) {
  const wanted = lines.map(normalise);
  const present = new Set(blocks);
  const rows = [];
  wanted.forEach((text, i) => { if (text && present.has(text)) rows.push(i); });
  const texts = new Set(rows.map((i) => wanted[i]));
  // Blocks no line has are kept only as gaps, a run of them as one placeholder (null).
  const columns = [], compact = [];
  blocks.forEach((text, index) => {
    if (texts.has(text)) { columns.push(index); compact.push(text); }
    else if (!compact.length || compact[compact.length - 1] !== null) { columns.push(NONE); compact.push(null); }
  });
  const bonus = columns.map((column) => column !== NONE && pinned.has(column));
  const matched = alignCompact(rows.map((i) => wanted[i]), compact, bonus);
  const result = new Array(lines.length).fill(NONE);
  rows.forEach((row, k) => { if (matched[k] !== NONE) result[row] = columns[matched[k]]; });
  return result;
}

const LOW = -(2 ** 60);

// alignment.py's _align_compact, line for line: three tables kept as two rows each, each cell's choice
// kept as bits for the way back.
function alignCompact(lines, blocks, pinned) {
  const n = lines.length, m = blocks.length;
  const result = new Array(n).fill(NONE);
  if (!n || !m) return result;
  const ids = new Map();
  const id = (text) => { if (!ids.has(text)) ids.set(text, ids.size); return ids.get(text); };
  const lineIds = Int32Array.from(lines, id);
  const blockIds = Int32Array.from(blocks, (text) => (text === null ? -1 : id(text)));
  // Scores: a match is worth more than any number of pins, a pin more than any number of runs cost.
  const pin = n + 2, weight = pin * (n + 2), width = m + 1;
  const gain = Float64Array.from(pinned, (on) => (on ? weight + pin : weight));
  let best = new Float64Array(width), ends = new Float64Array(width).fill(LOW);
  let nextBest = new Float64Array(width), nextEnds = new Float64Array(width);
  const choice = new Uint8Array((n + 1) * width);
  for (let i = 1; i <= n; i++) {
    const line = lineIds[i - 1], row = i * width;
    nextBest[0] = 0;
    nextEnds[0] = LOW;
    for (let j = 1; j <= m; j++) {
      let h = LOW, bits = 0;
      if (blockIds[j - 1] === line) {
        const run = ends[j - 1], fresh = best[j - 1] - 1;
        if (run >= fresh && run > LOW) h = gain[j - 1] + run;
        else { h = gain[j - 1] + fresh; bits |= 8; }
      }
      const up = ends[j];
      let e;
      if (h >= up && h > LOW) e = h;
      else { e = up; bits |= 4; }
      const b0 = best[j], left = nextBest[j - 1];
      let b;
      if (h > LOW && h >= b0 && h >= left) b = h;
      else if (b0 >= left) { b = b0; bits |= 1; }
      else { b = left; bits |= 2; }
      nextEnds[j] = e;
      nextBest[j] = b;
      choice[row + j] = bits;
    }
    [best, nextBest] = [nextBest, best];
    [ends, nextEnds] = [nextEnds, ends];
  }
  let i = n, j = m, state = "best";
  while (i > 0 && j > 0) {
    const bits = choice[i * width + j];
    if (state === "best") {
      if (bits & 1) i -= 1;
      else if (bits & 2) j -= 1;
      else state = "here";
    } else if (state === "ends") {
      if (bits & 4) i -= 1;
      else state = "here";
    } else {
      result[i - 1] = j - 1;
      state = bits & 8 ? "best" : "ends";
      i -= 1;
      j -= 1;
    }
  }
  return result;
}

// Where the line of block `index` goes among lines aligned as `alignment`: after the last line of an
// earlier block, else before the first line of a later block, else at the end.
export function placeOf(alignment, index) {
  let after = NONE, before = NONE;
  alignment.forEach((block, at) => {
    if (block === NONE) return;
    if (block < index) after = at;
    else if (before === NONE) before = at;
  });
  return after !== NONE ? after + 1 : before !== NONE ? before : alignment.length;
}

// The lines without line `at`; every other line stays, blank lines included, but a line taken out from
// between two blank lines takes one of them along (paragraphs stay one blank line apart).
export function removeLine(lines, at) {
  const kept = lines.slice(0, at);
  const rest = lines.slice(at + 1);
  if (rest.length && !rest[0].trim() && kept.length && !kept[kept.length - 1].trim()) rest.shift();
  return [...kept, ...rest];
}

// Block `index` of `blocks` in or out of the gold's `lines`: out when a line is aligned to it (that line
// only), else in (as `text`: one line, or several, a Markdown block's) at its place. `plain` gives the lines'
// texts as the blocks hold them (the gold editor's Markdown without its markup: markdown_lines.js); the
// lines inserted are set apart from their neighbours by blank lines where `apart(line, neighbour)` says so,
// and a line taken out takes the lines of its unit along (`unit(lines, at)`: a fenced block's).
// Returns {lines, at (the first line's index before or after), added, count (lines inserted)}.
export function toggleBlock(lines, blocks, index,
  { text = blocks[index], pinned = new Set(), plain = (x) => x, apart = () => false, unit = () => 1 } = {}) {
  const alignment = align(plain(lines), blocks, pinned);
  const mine = alignment.indexOf(index);
  if (mine !== NONE) {
    let next = lines;
    const size = unit(lines, mine);
    for (let k = size; k > 0 && mine < next.length; k--) next = removeLine(next, mine);
    if (size > 1 && mine > 0 && !next[mine - 1].trim() && (mine >= next.length || !next[mine].trim())) {
      next = [...next.slice(0, mine - 1), ...next.slice(mine)];
    }
    return { lines: next, at: mine, added: false, count: 0 };
  }
  const inserted = Array.isArray(text) ? text : [text];
  const at = placeOf(alignment, index);
  const before = at > 0 ? lines[at - 1] : null, after = at < lines.length ? lines[at] : null;
  const head = before !== null && before.trim() && apart(before, inserted[0]) ? [""] : [];
  const tail = after !== null && after.trim() && apart(inserted[inserted.length - 1], after) ? [""] : [];
  const block = [...head, ...inserted, ...tail];
  return { lines: [...lines.slice(0, at), ...block, ...lines.slice(at)], at: at + head.length, added: true,
    count: inserted.length };
}

// Every block of `indexes` into the gold (`take`) or out of it; returns {lines, changed, pinned (the
// pins after: the blocks taken in added, those taken out removed)}.
export function setBlocks(lines, blocks, indexes, take, pinned = new Set(),
  { plain = (x) => x, textOf = (index) => blocks[index], apart = () => false, unit = () => 1 } = {}) {
  let next = lines, changed = 0;
  const pins = new Set(pinned);
  for (const index of take ? indexes : [...indexes].reverse()) {
    const inGold = align(plain(next), blocks, pins).includes(index);
    if (take) pins.add(index);
    if (inGold !== take) {
      next = toggleBlock(next, blocks, index, { pinned: pins, plain, text: textOf(index), apart, unit }).lines;
      changed += 1;
    }
    if (!take) pins.delete(index);
  }
  return { lines: next, changed, pinned: pins };
}

// `extra` (lines, normalised) merged into the sequence `base`: a line of `extra` matched to a text of
// `base` is that text; one that is not comes right after the text the line before it stands for.
// Returns {sequence, positions (each extra line's index in the sequence), moved (each base text's)}.
export function merge(base, extra) {
  const alignment = align(extra, base);
  const after = new Map(); // index in base (NONE: before all) -> the extra lines that follow it
  let anchor = NONE;
  extra.forEach((line, k) => {
    if (alignment[k] !== NONE) { anchor = alignment[k]; return; }
    if (!after.has(anchor)) after.set(anchor, []);
    after.get(anchor).push(k);
  });
  const sequence = [], moved = new Array(base.length), positions = new Array(extra.length);
  const put = (ks) => { for (const k of ks ?? []) { positions[k] = sequence.length; sequence.push(extra[k]); } };
  put(after.get(NONE));
  base.forEach((text, index) => {
    moved[index] = sequence.length;
    sequence.push(text);
    put(after.get(index));
  });
  extra.forEach((line, k) => { if (alignment[k] !== NONE) positions[k] = moved[alignment[k]]; });
  return { sequence, positions, moved };
}
