"""The metric registry and the aggregation entry points shared by every metric."""

import json

import lxml.html
import pytest
from corpora import READABILITY, READABILITY_PAGES
from workbench import METRICS

from webapp.scoring import Summary, build_metrics, resolve_metric, summarize, summarize_many


def tokens_row(hit, extracted, gold, exact=False, errored=False):
    return {"hit": hit, "extracted": extracted, "gold": gold, "exact": exact, "errored": errored}


def test_registry_lists_the_built_in_metrics():
    assert list(METRICS) == ["tokens", "shingles", "snippets", "rouge-lsum", "wcxb", "webmainbench-rouge5",
                             "webmainbench-subset", "structure-tests", "title", "authors", "published"]
    for name, metric in METRICS.items():
        assert metric.name == name
        assert isinstance(metric.version, int)
        assert metric.needs in ("text", "snippets", "text+snippets", "markdown", "metadata")
        assert (metric.metadata_field is not None) == (metric.needs == "metadata")
        assert set(metric.averages) <= {"micro", "macro"}


def test_each_registry_is_a_new_dict():
    first, second = build_metrics(), build_metrics()
    assert first is not second
    del first["tokens"]
    assert "tokens" in build_metrics()


def test_unknown_metric_names_the_known_ones():
    with pytest.raises(ValueError, match="unknown metric 'bleu'; one of tokens, shingles"):
        resolve_metric(METRICS, "bleu")


@pytest.mark.parametrize(
    ("name", "candidate", "gold"),
    [
        ("tokens", "The cat sat", "the cat sat on the mat"),
        ("shingles", "The cat sat", "the cat sat on the mat"),
        ("snippets", "The cat sat", {"with": ["cat"], "without": ["dog"]}),
    ],
)
def test_counts_survive_a_json_round_trip(name, candidate, gold):
    counts = METRICS[name].counts(candidate, gold)
    cached = json.loads(json.dumps(counts))
    assert cached == counts
    assert summarize(METRICS[name], [cached], bootstrap=0) == summarize(METRICS[name], [counts], bootstrap=0)


def test_unsupported_average_is_a_clear_error():
    with pytest.raises(ValueError, match="tokens supports the averages macro, micro; not 'weighted'"):
        summarize(METRICS["tokens"], [tokens_row(1, 1, 1)], average="weighted")


def test_no_pages_gives_no_figures():
    assert summarize(METRICS["tokens"], [], bootstrap=100) == Summary(
        "tokens", "macro", 0, 0, None, None, None, None, None, None, None
    )


def test_rows_of_several_extractors_must_be_aligned():
    with pytest.raises(ValueError, match="not aligned by page"):
        summarize_many(METRICS["tokens"], {"a": [tokens_row(1, 1, 1)], "b": []})


def test_missing_errored_reads_as_false():
    rows = [{"hit": 1, "extracted": 2, "gold": 2, "exact": False}]
    assert summarize(METRICS["tokens"], rows, bootstrap=0).errors == 0


def test_summarize_many_matches_summarize_for_each_extractor():
    table = {
        "a": [tokens_row(2, 4, 3), tokens_row(3, 3, 3, exact=True), tokens_row(0, 0, 5, errored=True)],
        "b": [tokens_row(1, 2, 3), tokens_row(0, 4, 3), tokens_row(5, 5, 5, exact=True)],
    }
    many = summarize_many(METRICS["tokens"], table, average="micro", bootstrap=200, seed=3)
    for name, rows in table.items():
        one = summarize(METRICS["tokens"], rows, average="micro", bootstrap=200, seed=3)
        assert_close(many[name], one)
    assert (many["a"].errors, many["b"].errors) == (1, 0)


def assert_close(left: Summary, right: Summary) -> None:
    """Equal up to floating-point noise (the resample sums come from matrices of other widths)."""
    for field in Summary.__dataclass_fields__:
        a, b = getattr(left, field), getattr(right, field)
        if isinstance(a, float):
            assert a == pytest.approx(b, rel=1e-12), field
        else:
            assert a == b, field


@pytest.mark.parametrize(
    ("name", "counts", "scores"),
    [
        # p 2/4, r 2/3, F1 4/7
        ("tokens", tokens_row(2, 4, 3), (1 / 2, 2 / 3, 4 / 7)),
        ("shingles", {"tp": 0.5, "fp": 0.25, "fn": 0.25, "exact": False}, (2 / 3, 2 / 3, 2 / 3)),
        ("snippets", {"tp": 1, "fn": 1, "fp": 0, "tn": 3}, (1.0, 0.5, 2 / 3)),
        ("rouge-lsum", {"precision": 0.25, "recall": 0.5, "f1": 1 / 3}, (0.25, 0.5, 1 / 3)),
    ],
)
def test_one_page_scores(name, counts, scores):
    result = METRICS[name].of_page(counts)
    assert result == pytest.approx(scores)
    assert all(type(value) is float for value in result)


@pytest.mark.corpus(READABILITY)
@pytest.mark.parametrize("name", ["tokens", "shingles", "rouge-lsum"])
def test_a_real_gold_scores_perfectly_against_itself(name):
    metric = METRICS[name]
    if not metric.available:
        pytest.skip(metric.unavailable_reason)
    expected = READABILITY_PAGES / "nytimes-1" / "expected.html"
    blocks = lxml.html.fromstring(expected.read_text(encoding="utf-8")).itertext()
    gold = "\n".join(block.strip() for block in blocks if block.strip())
    rows = [metric.counts(gold, gold), metric.counts(gold.upper(), gold)]
    assert METRICS[name].of_page(rows[0]) == (1.0, 1.0, 1.0)
    # only the lower-casing token metric forgives a change of case
    assert (METRICS[name].of_page(rows[1])[2] == 1.0) is (name == "tokens")
