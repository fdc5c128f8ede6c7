"""Structure tests: generated from a Markdown gold, one fact each, passed whatever the Markdown dialect and
failed when the structure is lost; the metric's pass rates per kind, pooled and per page."""

import json

import pytest
from corpora import WCXB, WCXB_SAMPLE

from webapp.scoring import summarize
from webapp.scoring.markdown_structure import parse
from webapp.scoring.structure_metric import METRIC
from webapp.scoring.structure_tests import generate, run

GOLD = """# Guide

## Install

- pip
- conda
  - nested

| name | size |
|---|---|
| a | 1 |

```python
def f():
    return 1
```

## Use
"""


def outcome(candidate, gold=GOLD):
    return {test.id: passed for test, passed in run(generate(gold), candidate)}


def test_tests_generated_from_a_gold():
    tests = [(test.id, test.kind, test.expected) for test in generate(GOLD)]
    assert tests == [
        ("heading-1", "heading", {"level": 1, "text": "Guide"}),
        ("heading-2", "heading", {"level": 2, "text": "Install"}),
        ("heading-3", "heading", {"level": 2, "text": "Use"}),
        ("list-1", "list", {"items": ["pip", "conda"]}),
        ("list-2", "list", {"items": ["nested"]}),
        ("table-1", "table", {"row": 1, "column": 1, "text": "name"}),
        ("table-2", "table", {"row": 1, "column": 2, "text": "size"}),
        ("table-3", "table", {"row": 2, "column": 1, "text": "a"}),
        ("table-4", "table", {"row": 2, "column": 2, "text": "1"}),
        ("code-1", "code", {"lines": ["def f():", "    return 1"]}),
        ("order-1", "order", {"before": "Guide", "after": "Install"}),
        ("order-2", "order", {"before": "Install", "after": "Use"}),
    ]
    assert generate(GOLD)[0].description == "heading level 1 'Guide'"
    assert generate(GOLD)[0].as_json() == {"id": "heading-1", "kind": "heading",
                                           "description": "heading level 1 'Guide'",
                                           "expected": {"level": 1, "text": "Guide"}}


def test_another_dialect_of_the_same_structure_passes_every_test():
    candidate = """Guide
=====

Install
-------

* pip
* conda
    * nested

<table><tr><th>name</th><th>size</th></tr><tr><td>a</td><td>1</td></tr></table>

    def f():
        return 1

Use
---
"""
    assert all(outcome(candidate).values())


def test_lost_structure_fails_its_own_tests_only():
    candidate = """# Guide

### Install

- pip conda

name size a 1

def f(): return 1

## Use
"""
    failed = {name for name, passed in outcome(candidate).items() if not passed}
    # the heading level lost, the list items merged (and the nested one flattened into text), the table
    # flattened, the code joined; the sections still come in order
    assert failed == {"heading-2", "list-1", "list-2", "table-1", "table-2", "table-3", "table-4", "code-1"}


def test_sections_out_of_order_and_items_split_across_lists_fail():
    candidate = "# Use\n\n# Guide\n\n# Install\n\n- pip\n\ntext\n\n- conda\n"
    result = outcome(candidate)
    assert (result["order-1"], result["order-2"]) == (True, False)
    assert result["list-1"] is False
    # items of the gold's list in order, with another between them, in one list: passes
    assert outcome("- pip\n- other\n- conda\n")["list-1"] is True


def test_a_cell_spanning_columns_moves_the_cells_after_it():
    structure = parse('<table><tr><td colspan="2">wide</td><td>c</td></tr>'
                      '<tr><td rowspan="2">tall</td><td>x</td><td>y</td></tr><tr><td>z</td></tr></table>')
    assert structure.tables == [{(1, 1): "wide", (1, 3): "c", (2, 1): "tall", (2, 2): "x", (2, 3): "y",
                                 (3, 2): "z"}]


def test_metric_counts_per_kind_list_the_failures_and_fail_everything_on_error():
    counts = METRIC.counts("# Guide\n\n## Install\n\n## Use\n", GOLD)
    assert (counts["passed"], counts["tests"]) == (5, 12)
    assert (counts["heading_passed"], counts["heading_tests"], counts["table_tests"]) == (3, 3, 4)
    assert [failure["id"] for failure in counts["failed"]] == [
        "list-1", "list-2", "table-1", "table-2", "table-3", "table-4", "code-1"]
    assert counts["failed"][-1] == {"id": "code-1", "kind": "code",
                                         "description": "code block of 2 lines from 'def f():'"}
    errored = METRIC.counts(GOLD, GOLD, errored=True)
    assert (errored["passed"], errored["tests"], errored["errored"]) == (0, 12, True)
    assert METRIC.of_page(counts) == pytest.approx((5 / 12,) * 3)
    assert METRIC.of_page(METRIC.counts("anything", "plain text only")) == (1.0, 1.0, 1.0)


def test_pass_rates_pooled_and_per_page():
    rows = [
        METRIC.counts("# A\n\n## B\n", "# A\n\n## B\n"),  # 2 headings + 1 order: 3 of 3
        METRIC.counts("A\n\nB\n\n- x\n", "# A\n\n# B\n\n- x\n- y\n"),  # headings 0 of 2, list 0 of 1, order 1 of 1
        METRIC.counts("anything", "no structure"),  # no test
    ]
    pooled = summarize(METRIC, rows, bootstrap=0)
    assert pooled.f1 == pytest.approx(4 / 7)
    assert pooled.extra == pytest.approx({"heading_rate": 2 / 4, "list_rate": 0.0, "table_rate": None,
                                          "code_rate": None, "order_rate": 1.0}, nan_ok=True)
    per_page = summarize(METRIC, rows, average="macro", bootstrap=0)
    assert per_page.f1 == pytest.approx((1 + 1 / 4) / 2)
    assert per_page.extra["heading_rate"] == pytest.approx((1 + 0) / 2)


@pytest.mark.slow
@pytest.mark.corpus(WCXB)
def test_every_wcxb_markdown_gold_passes_all_its_own_tests():
    pages = tested = 0
    for path in sorted((WCXB_SAMPLE / "dev" / "ground-truth").glob("*.json")):
        markdown = json.loads(path.read_text(encoding="utf-8"))["ground_truth"].get("main_content_markdown")
        if not markdown:
            continue
        pages += 1
        results = run(generate(markdown), markdown)
        tested += len(results)
        assert all(passed for _, passed in results), (path.name, [t.id for t, passed in results if not passed])
    assert pages == 276 and tested > 1000
