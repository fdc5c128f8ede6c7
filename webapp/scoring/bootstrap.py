"""Bootstrap over pages: seeded resamples with replacement, the same resamples for every column.

A resample draws n pages uniformly with replacement; its weights (how often each page was drawn, adding up
to n) follow Multinomial(n, 1/n, ..., 1/n). They are drawn as counts of uniform page indices (``integers`` +
``bincount``, in fixed blocks of resamples), which has that distribution and is about four times faster than
``Generator.multinomial`` at 10,000 pages. Every figure of every resample is then one matrix product
``weights @ values``: all extractors summarised in one call share the same resamples (paired comparisons).

Spread is the sample standard deviation over resamples (ddof=1, as ``statistics.stdev`` in the
article-extraction-benchmark's evaluate.py).
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

BLOCK = 128


def _draws(pages: int, resamples: int, seed: int) -> Iterator[np.ndarray]:
    """The resamples' drawn page indices, in blocks of at most BLOCK rows (block x pages). Below 2**32
    pages they are drawn as unsigned 32-bit integers: numpy draws a range that small from 32-bit words
    whatever the type asked for, so the indices are the very ones a 64-bit draw gives, in half the memory
    and time."""
    if resamples < 1:
        raise ValueError(f"the number of bootstrap resamples must be positive, not {resamples}")
    rng = np.random.default_rng(seed)
    page_type = np.uint32 if pages <= 2**32 else np.int64
    for start in range(0, resamples, BLOCK):
        yield rng.integers(0, pages, size=(min(BLOCK, resamples - start), pages), dtype=page_type)


def weight_blocks(pages: int, resamples: int, seed: int) -> Iterator[np.ndarray]:
    """The resamples' page weights, in blocks of at most BLOCK rows (block x pages integer counts).

    The same seed, page count and number of resamples give the same weights. Each resample's counts
    are taken on their own (their array stays in the CPU's cache).
    """
    for picks in _draws(pages, resamples, seed):
        yield np.stack([np.bincount(row, minlength=pages) for row in picks])


def weights(pages: int, resamples: int, seed: int) -> np.ndarray:
    """All the resamples' page weights (resamples x pages), those of ``weight_blocks``, in the smallest
    unsigned type that holds them: one byte (a page drawn 256 times in one resample is all but
    impossible, but then two)."""
    found = np.zeros((resamples, pages), dtype=np.uint8)
    row = 0
    for picks in _draws(pages, resamples, seed):
        for drawn in picks:
            counts = np.bincount(drawn, minlength=pages)
            if counts.max(initial=0) > np.iinfo(found.dtype).max:
                found = found.astype(np.uint16)
            found[row] = counts
            row += 1
    return found


def resampled_sums(values: np.ndarray, resamples: int, seed: int) -> np.ndarray:
    """(resamples x k) weighted column sums of ``values`` (pages x k), one row per bootstrap resample."""
    blocks = [w.astype(float) @ values for w in weight_blocks(values.shape[0], resamples, seed)]
    return np.vstack(blocks)


def spread(samples: np.ndarray) -> float | None:
    """Sample standard deviation (ddof=1) of the defined (non-NaN) samples; None with fewer than two."""
    defined = samples[~np.isnan(samples)]
    if defined.size < 2:
        return None
    return float(np.std(defined, ddof=1))
