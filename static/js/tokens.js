// Token overlap, the `tokens` metric's definition: tokens are the \w+ runs of the lower-cased text
// (Python's \w = letters, digits and underscore), compared as multisets.
const WORD = /[\p{L}\p{N}_]+/gu;

export function tokens(text) {
  return text.toLowerCase().match(WORD) || [];
}

export function bag(text) {
  const counts = new Map();
  const list = tokens(text);
  for (const token of list) counts.set(token, (counts.get(token) || 0) + 1);
  return { counts, size: list.length };
}

// Precision, recall and F1 of a candidate bag against a gold bag.
export function scores(candidate, gold) {
  let hit = 0;
  const [small, large] = candidate.counts.size <= gold.counts.size
    ? [candidate.counts, gold.counts] : [gold.counts, candidate.counts];
  for (const [token, count] of small) hit += Math.min(count, large.get(token) || 0);
  const precision = hit / Math.max(candidate.size, 1);
  const recall = hit / Math.max(gold.size, 1);
  const f1 = precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
  return { precision, recall, f1 };
}
