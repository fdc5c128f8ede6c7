"""The accept guard: does an extraction look like an article's text, or like a failure?"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class GuardThresholds:
    """Below these an extraction is rejected (the defaults suit news and blog articles)."""

    min_chars: int = 500
    min_long_lines: int = 2
    long_line_chars: int = 150
    min_ratio: float = 0.01


@dataclass(frozen=True)
class Verdict:
    accepted: bool
    reason: str | None


def judge(text: str, html_length: int, t: GuardThresholds) -> Verdict:
    """Reject, with the first reason that applies: "too short", "no long paragraphs",
    "tiny text-to-HTML ratio" (len(text) / html_length; not checked for an empty page)."""
    if not text or len(text) < t.min_chars:
        return Verdict(False, "too short")
    long_lines = sum(1 for line in text.splitlines() if len(line) >= t.long_line_chars)
    if long_lines < t.min_long_lines:
        return Verdict(False, "no long paragraphs")
    if html_length > 0 and len(text) / html_length < t.min_ratio:
        return Verdict(False, "tiny text-to-HTML ratio")
    return Verdict(True, None)
