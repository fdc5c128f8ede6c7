"""The accept guard, at its exact boundaries."""

from __future__ import annotations

import pytest

from webapp.extractors.guard import GuardThresholds, Verdict, judge

DEFAULTS = GuardThresholds()


def text_of(*line_lengths: int) -> str:
    """Lines of the given lengths joined by newlines (each newline is one more character)."""
    return "\n".join("w" * n for n in line_lengths)


@pytest.mark.parametrize(
    ("text", "html_length", "verdict"),
    [
        ("", 10_000, Verdict(False, "too short")),
        # 150 + 1 + 150 + 1 + 197 = 499 characters
        (text_of(150, 150, 197), 10_000, Verdict(False, "too short")),
        # 500 characters
        (text_of(150, 150, 198), 10_000, Verdict(True, None)),
        # 500 characters with exactly two lines of 150, then one of them a character shorter
        (text_of(150, 150, 100, 97), 10_000, Verdict(True, None)),
        (text_of(149, 150, 100, 98), 10_000, Verdict(False, "no long paragraphs")),
        (text_of(120, 120, 120, 137), 10_000, Verdict(False, "no long paragraphs")),
        # 500 / 50_001 is just under 1 %; 500 / 50_000 is exactly 1 %
        (text_of(150, 150, 198), 50_001, Verdict(False, "tiny text-to-HTML ratio")),
        (text_of(150, 150, 198), 50_000, Verdict(True, None)),
        # short and no long lines: the first reason wins
        (text_of(10, 10), 10_000_000, Verdict(False, "too short")),
    ],
)
def test_default_thresholds(text, html_length, verdict):
    assert judge(text, html_length, DEFAULTS) == verdict


@pytest.mark.parametrize(
    ("thresholds", "text", "verdict"),
    [
        (GuardThresholds(10, 1, long_line_chars=10), "w" * 10, Verdict(True, None)),
        (GuardThresholds(10, 1, long_line_chars=11), "w" * 10, Verdict(False, "no long paragraphs")),
        (GuardThresholds(min_chars=0, min_long_lines=0), "", Verdict(False, "too short")),
        # html_length is 10: a ratio of 5 / 10
        (GuardThresholds(5, 0, min_ratio=0.5), "w" * 5, Verdict(True, None)),
        (GuardThresholds(5, 0, min_ratio=0.6), "w" * 5, Verdict(False, "tiny text-to-HTML ratio")),
    ],
)
def test_custom_thresholds(thresholds, text, verdict):
    assert judge(text, 10, thresholds) == verdict


# Drift: one expandable line per site ----------


def test_drift_is_one_expandable_line_per_site(app):
    from flask import render_template
    from werkzeug.datastructures import MultiDict

    flags = [{"site": "shifty.example", "extractor": f"x{n}", "from_batch": 1, "to_batch": 2, "from_rate": 1.0,
              "to_rate": 0.1 * n, "drop": 100 - 10 * n} for n in range(10)]
    flags.append({"site": "other.example", "extractor": "x0", "from_batch": 1, "to_batch": 3, "from_rate": 0.9,
                  "to_rate": 0.2, "drop": 70.0})
    board = {"drift": flags, "pending": 0, "metric": "tokens", "average": "micro", "pages": 0, "extractors": {},
             "extras": {}, "compositions": {}, "outdated": [], "best_cascade": None}
    with app.test_request_context("/leaderboard"):
        html = render_template("leaderboard/_board.html", board=board, args=MultiDict())
    assert html.count("data-site=") == 2
    assert html.count("<summary>") == 2 and html.count("<details>") == 2
    summaries = [part.split("</summary>")[0] for part in html.split("<summary>")[1:]]
    summary = next(text for text in summaries if "shifty" in text)
    assert "10 times" in summary and "−100 points" in summary
    assert all(f"x{n}:" in html for n in range(10))
