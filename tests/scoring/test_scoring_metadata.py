"""The metadata metrics as published: `published` by day as htmldate's evaluation scores it, `authors` exact after
normalisation (as trafilatura's author evaluation compares a page's author) with a per-name F1, `title` exact
after whitespace normalisation with a token F1. Every figure below is computed by hand."""

from __future__ import annotations

import pytest

from webapp.scoring import build_metrics, summarize
from webapp.scoring.authors_metric import METRIC as AUTHORS
from webapp.scoring.published_metric import METRIC as PUBLISHED
from webapp.scoring.title_metric import METRIC as TITLE


def test_the_three_metrics_are_registered_under_their_names():
    metrics = build_metrics()
    assert {name: metrics[name].metadata_field for name in ("title", "authors", "published")} == {
        "title": "title", "authors": "authors", "published": "published"}
    assert all(metrics[name].needs == "metadata" for name in ("title", "authors", "published"))


@pytest.mark.parametrize(("found", "gold", "outcome"), [
    ("2024-03-01", "2024-03-01", "tp"),
    ("2024-03-01T23:30:00+01:00", "2024-03-01", "tp"),  # by day, as written
    ("2024-03-01", "2024-03-01T08:00", "tp"),
    ("2024-03-02", "2024-03-01", "fp"),  # a wrong date
    ("2024-03-01", None, "fp"),  # a date where the page has none
    (None, "2024-03-01", "fn"),  # missing
    (None, None, "tn"),  # none against none
])
def test_a_date_is_one_of_tp_fp_fn_tn_by_day(found, gold, outcome):
    counts = PUBLISHED.counts(found, gold)
    assert {name: counts[name] for name in ("tp", "fp", "fn", "tn")} == {
        name: int(name == outcome) for name in ("tp", "fp", "fn", "tn")}


def test_an_errored_extraction_found_no_date():
    assert PUBLISHED.counts("2024-03-01", "2024-03-01", errored=True)["fn"] == 1


def test_published_pools_the_counts_as_htmldate_computes_its_scores():
    """10 pages: 5 TP, 2 FP, 2 FN, 1 TN. precision 5/7, recall 5/7, F1 10/14, accuracy 6/10."""
    rows = ([PUBLISHED.counts("2020-01-01", "2020-01-01")] * 5 + [PUBLISHED.counts("2020-01-02", "2020-01-01")]
            + [PUBLISHED.counts("2020-01-02", None)] + [PUBLISHED.counts(None, "2020-01-01")] * 2
            + [PUBLISHED.counts(None, None)])
    summary = summarize(PUBLISHED, rows, bootstrap=0)
    assert summary.precision == pytest.approx(5 / 7)
    assert summary.recall == pytest.approx(5 / 7)
    assert summary.f1 == pytest.approx(2 * 5 / (2 * 5 + 2 + 2))
    assert summary.accuracy == pytest.approx(6 / 10)
    assert summary.pages == 10


def test_published_leaves_precision_undefined_without_a_date_found():
    summary = summarize(PUBLISHED, [PUBLISHED.counts(None, None), PUBLISHED.counts(None, "2020-01-01")], bootstrap=0)
    assert summary.precision is None
    assert summary.recall == 0.0 and summary.accuracy == 0.5


@pytest.mark.parametrize(("found", "gold"), [
    (["Jane Doe"], ["jane  doe"]),
    (["By Jane Doe"], ["Jane Doe"]),
    (["John Roe", "Jane Doe"], ["Jane Doe", "John Roe"]),  # order of names
    (["JANE DOE,"], ["Jane Doe"]),
    (None, None),  # no author on the page, and none found
])
def test_authors_are_exact_after_normalisation(found, gold):
    counts = AUTHORS.counts(found, gold)
    assert counts["exact"]
    assert AUTHORS.of_page(counts) == (1.0, 1.0, 1.0)


def test_the_per_name_f1_counts_names_found_and_expected():
    """Found Jane Doe, Max Mustermann; expected Jane Doe, John Roe, Erika Musterfrau: 1 hit,
    precision 1/2, recall 1/3, F1 2 * (1/2 * 1/3) / (1/2 + 1/3) = 0.4."""
    counts = AUTHORS.counts(["Jane Doe", "Max Mustermann"], ["Jane Doe", "John Roe", "Erika Musterfrau"])
    assert not counts["exact"]
    assert (counts["hit"], counts["extracted"], counts["gold"]) == (1, 2, 3)
    precision, recall, f1 = AUTHORS.of_page(counts)
    assert (precision, recall) == (pytest.approx(1 / 2), pytest.approx(1 / 3))
    assert f1 == pytest.approx(0.4)


def test_authors_where_the_page_has_none_or_the_extractor_found_none():
    assert AUTHORS.of_page(AUTHORS.counts(["Jane Doe"], None))[2] == 0.0
    assert AUTHORS.of_page(AUTHORS.counts(None, ["Jane Doe"]))[2] == 0.0
    assert not AUTHORS.counts(None, ["Jane Doe"])["exact"]


def test_authors_accuracy_is_the_share_of_exact_pages_and_f1_the_mean_per_page():
    rows = [AUTHORS.counts(["Jane Doe"], ["jane doe"]), AUTHORS.counts(["Jane Doe", "Max Mustermann"],
                                                                       ["Jane Doe", "John Roe", "Erika Musterfrau"])]
    summary = summarize(AUTHORS, rows, bootstrap=0)
    assert summary.accuracy == 0.5
    assert summary.f1 == pytest.approx((1.0 + 0.4) / 2)
    pooled = summarize(AUTHORS, rows, bootstrap=0, average="micro")  # 2 hits of 3 found and 4 expected
    assert (pooled.precision, pooled.recall) == (pytest.approx(2 / 3), pytest.approx(2 / 4))


def test_a_title_is_exact_after_whitespace_normalisation_only():
    assert TITLE.counts("Night  trains\nof Europe", "Night trains of Europe")["exact"]
    assert not TITLE.counts("night trains of europe", "Night trains of Europe")["exact"]  # case counts
    assert not TITLE.counts("Night trains of Europe | The Daily", "Night trains of Europe")["exact"]


def test_the_title_token_f1():
    """"Night trains of Europe | The Daily" against "Night trains of Europe": 4 hits of 6 tokens found and 4
    expected: precision 4/6, recall 1, F1 0.8."""
    counts = TITLE.counts("Night trains of Europe | The Daily", "Night trains of Europe")
    precision, recall, f1 = TITLE.of_page(counts)
    assert (precision, recall, f1) == (pytest.approx(4 / 6), 1.0, pytest.approx(0.8))
    assert TITLE.of_page(TITLE.counts("night trains of europe", "Night trains of Europe")) == (1.0, 1.0, 1.0)


def test_title_where_one_side_has_none():
    assert TITLE.of_page(TITLE.counts(None, None)) == (1.0, 1.0, 1.0)
    assert TITLE.of_page(TITLE.counts("Home", None))[2] == 0.0
    assert TITLE.of_page(TITLE.counts(None, "Night trains"))[2] == 0.0
    summary = summarize(TITLE, [TITLE.counts("Night trains", "Night trains"), TITLE.counts(None, "Night trains")],
                        bootstrap=0)
    assert (summary.accuracy, summary.f1) == (0.5, 0.5)
