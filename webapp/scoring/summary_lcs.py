"""ROUGE's summary-level LCS (Lin, 2004, section 3.2), as rouge_score 0.1.2 computes it for ``rougeLsum``
(``rouge_scorer._summary_level_lcs``), with the same result to the last bit and far less work.

For each reference sentence, rouge_score takes one longest common subsequence with each candidate sentence
(the one its backtrack through the LCS table reads out), unites their reference positions, and counts the
united tokens as hits, each token at most as often as it occurs in both texts. The table of a sentence pair
costs rouge_score a Python step per cell; here a row of it is one bit vector over the candidate sentence's
positions (Hyyrö's bit-parallel LCS: a zero bit where the row's value grows), so that a row is four integer
operations and a cell's value is a count of bits. The backtrack reads the same cells as rouge_score's, in the
same order, so it reads out the same subsequence, and stops once it has found all of it (past that point
rouge_score's walk finds no match). A candidate sentence that shares no token with the reference sentence
is skipped: its LCS is empty.
"""

from __future__ import annotations

from collections import Counter


def _positions(tokens: list[str]) -> dict[str, int]:
    """Each token's positions in the sentence, as the bits of an integer (position j is bit j)."""
    masks: dict[str, int] = {}
    for j, token in enumerate(tokens):
        masks[token] = masks.get(token, 0) | (1 << j)
    return masks


def _cell(row: int, j: int) -> int:
    """The LCS table's value in column j of the row whose bit vector is `row`: j less the set bits below j."""
    return j - (row & ((1 << j) - 1)).bit_count()


def lcs_indices(reference: list[str], candidate: list[str], masks: dict[str, int] | None = None) -> list[int]:
    """The reference positions of the LCS that rouge_score's ``lcs_ind(reference, candidate)`` reads out."""
    masks = _positions(candidate) if masks is None else masks
    width = len(candidate)
    full = (1 << width) - 1
    rows = [full]  # rows[i]: the table's row i (reference prefix of length i) as a bit vector
    vector = full
    for token in reference:
        matched = vector & masks.get(token, 0)
        vector = ((vector + matched) | (vector - matched)) & full
        rows.append(vector)
    length = width - vector.bit_count()
    found: list[int] = []
    i, j = len(reference), width
    while len(found) < length:  # rouge_score's walk: i > 0 and j > 0 hold while a match remains
        if reference[i - 1] == candidate[j - 1]:
            found.append(i - 1)
            i -= 1
            j -= 1
        elif _cell(rows[i], j - 1) > _cell(rows[i - 1], j):
            j -= 1
        else:
            i -= 1
    found.reverse()
    return found


def summary_level_lcs(reference: list[list[str]], candidate: list[list[str]]) -> tuple[float, float, float]:
    """(precision, recall, F-measure) of the candidate's tokenised sentences against the reference's."""
    reference_length = sum(map(len, reference))
    candidate_length = sum(map(len, candidate))
    if not reference_length or not candidate_length:
        return 0.0, 0.0, 0.0
    reference_left = Counter(token for sentence in reference for token in sentence)
    candidate_left = Counter(token for sentence in candidate for token in sentence)
    sentences = [(sentence, _positions(sentence)) for sentence in candidate]
    hits = 0
    for reference_sentence in reference:
        tokens = set(reference_sentence)
        united: set[int] = set()
        for sentence, masks in sentences:
            if not tokens.isdisjoint(masks):
                united.update(lcs_indices(reference_sentence, sentence, masks))
        for index in sorted(united):
            token = reference_sentence[index]
            if candidate_left[token] > 0 and reference_left[token] > 0:
                hits += 1
                candidate_left[token] -= 1
                reference_left[token] -= 1
    recall = hits / reference_length
    precision = hits / candidate_length
    fmeasure = 2 * precision * recall / (precision + recall) if precision + recall > 0 else 0.0
    return precision, recall, fmeasure
