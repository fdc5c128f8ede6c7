"""Vectorised ratios for corpus figures: one value per bootstrap resample (or one for the point estimate).

Undefined figures are NaN (only where a metric's definition leaves them undefined); the caller turns NaN
into None.
"""

from __future__ import annotations

import numpy as np


def ratio_or_zero(numerator: np.ndarray, denominator: np.ndarray) -> np.ndarray:
    """numerator / denominator, 0 where the denominator is 0."""
    numerator, denominator = np.asarray(numerator, float), np.asarray(denominator, float)
    return np.divide(numerator, denominator, out=np.zeros_like(numerator), where=denominator > 0)


def ratio_or_nan(numerator: np.ndarray, denominator: np.ndarray) -> np.ndarray:
    """numerator / denominator, NaN (undefined) where the denominator is 0."""
    numerator, denominator = np.asarray(numerator, float), np.asarray(denominator, float)
    return np.divide(numerator, denominator, out=np.full_like(numerator, np.nan), where=denominator > 0)


def harmonic_mean(precision: np.ndarray, recall: np.ndarray) -> np.ndarray:
    """F1 = 2PR / (P + R): 0 when P + R == 0, NaN when either is undefined."""
    precision, recall = np.asarray(precision, float), np.asarray(recall, float)
    f1 = ratio_or_zero(2 * precision * recall, precision + recall)
    f1[np.isnan(precision) | np.isnan(recall)] = np.nan
    return f1
