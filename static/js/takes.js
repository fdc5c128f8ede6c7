// Taking a candidate's lines into the gold: which of its lines the gold lacks, grouped into regions, and
// where a taken line lands. A line lands where its block is on the page when it is one of the page's
// blocks, else right after the candidate's line before it (the candidate's lines merged into the page's
// blocks, align.js's `merge`), so taking works as a block click does.
import { align, merge, NONE, setBlocks } from "./align.js";
import { normalise } from "./blocks.js";

// A candidate's text as lines to take: normalised, blank ones left out.
export const candidateLines = (text) => text.split("\n").map(normalise).filter((line) => line);

// Between two lines the gold and the candidate share (matched in order), the candidate's lines the gold
// lacks: [{candidate: [from, to), gold: [from, to) (the gold's lines there, blank ones trimmed off its
// ends), before (the shared candidate line just before, or null)}], regions with nothing to take left out.
export function regions(gold, candidate) {
  const alignment = align(gold, candidate);
  const pairs = [];
  alignment.forEach((c, g) => { if (c !== NONE) pairs.push([g, c]); });
  pairs.push([gold.length, candidate.length]);
  const found = [];
  let g = 0, c = 0;
  for (const [gi, ci] of pairs) {
    if (ci > c) {
      let from = g, to = gi;
      while (from < to && !gold[from].trim()) from++;
      while (to > from && !gold[to - 1].trim()) to--;
      found.push({ candidate: [c, ci], gold: [from, to], before: c > 0 ? candidate[c - 1] : null });
    }
    g = gi + 1;
    c = ci + 1;
  }
  return found;
}

// The gold with the candidate's lines `ks` taken in at their places: {lines, changed, pinned}. `pinned`
// (page block indexes, see align.js) is kept and gains the page blocks the taken lines are. With the gold
// as Markdown, `markdown` gives {texts (each candidate line's Markdown lines), plain, apart, unit} (the
// options of align.js's setBlocks, markdown_lines.js): the gold is aligned by its lines' plain text and a
// line goes in as its Markdown.
export function takeLines(gold, candidate, page, ks, pinned = new Set(), markdown = {}) {
  const { texts = null, ...options } = markdown;
  const { sequence, positions, moved } = merge(page, candidate);
  const pageOf = new Map(moved.map((at, index) => [at, index]));
  const ownText = new Map(texts ? ks.map((k) => [positions[k], texts[k]]) : []);
  const taken = setBlocks(gold, sequence, ks.map((k) => positions[k]), true, new Set([...pinned].map((i) => moved[i])),
    { ...options, textOf: (at) => ownText.get(at) ?? sequence[at] });
  const pins = [...taken.pinned].filter((at) => pageOf.has(at)).map((at) => pageOf.get(at));
  return { lines: taken.lines, changed: taken.changed, pinned: new Set(pins) };
}

// The gold with a region's lines replaced by the candidate's version of it: {lines, at, count (lines put
// in)}; `texts`: each candidate line's Markdown lines (else the line itself).
export function replaceRegion(gold, candidate, region, texts = null) {
  const [from, to] = region.gold;
  const [first, last] = region.candidate;
  const theirs = texts ? texts.slice(first, last).flat() : candidate.slice(first, last);
  return { lines: [...gold.slice(0, from), ...theirs, ...gold.slice(to)], at: from, count: theirs.length };
}
