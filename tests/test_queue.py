"""The queue: order (no gold first, most disagreement first), filters, navigation, progress per site."""

from __future__ import annotations

from fractions import Fraction

import pytest

from webapp.disagreement import mean_pairwise_f1
from webapp.extraction import refresh_derived
from webapp.gold import add_revision
from webapp.models import Extraction, Page
from webapp.queue import QueueFilter, QueueRow, progress_by_site, queue_rows, step
from workbench import make_page


@pytest.mark.parametrize(
    "texts, expected",
    [
        # (abcd, ab): p = 2/4, r = 2/2, F1 = 2/3; (abcd, x) and (ab, x): 0 -> mean (2/3) / 3 = 2/9
        (["a b c d", "a b", "x"], Fraction(2, 9)),
        (["Same words.", "same WORDS"], Fraction(1)),
        (["a a b", "a b b"], Fraction(2, 3)),  # hit 2 of 3 both ways
        (["only one"], None),
        ([], None),
    ],
)
def test_mean_pairwise_f1(texts, expected):
    found = mean_pairwise_f1(texts)
    assert found == pytest.approx(float(expected)) if expected is not None else found is None


def gold(session, page, status="done", author="Ann", kind="article"):
    add_revision(session, page, text="gold", kind=kind, status=status, author=author)
    session.commit()


@pytest.fixture
def pages(session):
    """Five pages: two with gold, three without, with different agreement between their candidates."""
    agree = {"trafilatura": "one two three four", "density": "one two three four"}
    differ = {"trafilatura": "one two three four", "density": "five six seven eight"}
    some = {"trafilatura": "one two three four", "density": "one two"}
    made = {
        "done_differ": make_page(session, url="https://a.example/1", host="a.example", candidates=differ),
        "todo_agree": make_page(session, url="https://a.example/2", host="a.example", candidates=agree),
        "todo_single": make_page(session, url="https://b.example/3", host="b.example",
                                 candidates={"trafilatura": "x"}),
        "todo_differ": make_page(session, url="https://b.example/4%", host="b.example", candidates=differ),
        "draft_some": make_page(session, url="https://b.example/5", host="b.example", candidates=some),
    }
    gold(session, made["done_differ"])
    gold(session, made["draft_some"], status="draft", author="Bob", kind="listing")
    return {name: page.id for name, page in made.items()}


def order(session, **filters):
    return [row.page_id for row in queue_rows(session, QueueFilter(**filters))]


def test_default_order_is_no_gold_first_then_most_disagreement(session, pages):
    assert order(session) == [
        pages["todo_differ"], pages["todo_agree"], pages["todo_single"],
        pages["done_differ"], pages["draft_some"],
    ]


@pytest.mark.parametrize(
    "filters, names",
    [
        ({"status": "todo"}, ["todo_differ", "todo_agree", "todo_single"]),
        ({"status": "draft"}, ["draft_some"]),
        ({"kind": "listing"}, ["draft_some"]),
        ({"annotator": "Ann"}, ["done_differ"]),
        ({"url_contains": "4%"}, ["todo_differ"]),
        ({"url_contains": "a.example"}, ["todo_agree", "done_differ"]),
    ],
)
def test_filters(session, pages, filters, names):
    assert order(session, **filters) == [pages[name] for name in names]


def test_site_batch_and_verdict_filters(session, pages):
    page = session.get(Extraction, 1).page
    assert order(session, site_id=page.site_id) == [pages["todo_agree"], pages["done_differ"]]
    assert order(session, batch_id=page.batch_id) == [page.id]
    session.get(Extraction, 1).accepted = False
    session.commit()
    assert order(session, verdict="rejected") == [page.id]
    assert page.id not in order(session, verdict="accepted")


def test_disagreement_is_stored_by_the_run_that_changed_the_extractions(session, pages):
    single = session.get(Page, pages["todo_single"])
    assert single.disagreement is None  # one candidate: nothing to disagree with
    other = session.get(Page, pages["todo_agree"])
    other.disagreement = 0.5  # a value the next run must leave alone: its page is not in the run
    session.add(Extraction(page_id=single.id, extractor="density", fingerprint="d2", text="x"))
    session.commit()
    refresh_derived(session, [])  # a page never measured is measured by any run
    session.commit()
    rows = {row.page_id: row for row in queue_rows(session)}
    assert rows[pages["todo_single"]].disagreement == 1.0
    assert rows[pages["todo_agree"]].disagreement == 0.5


def row(page_id, status):
    return QueueRow(page_id, None, "p", "h", status, None, None, None)


ROWS = [row(1, "todo"), row(2, "todo"), row(3, "done"), row(4, "done")]


@pytest.mark.parametrize(
    "page_id, direction, expected",
    [
        (1, 1, 2), (2, -1, 1), (1, -1, None), (4, 1, 1),  # saved page: back to the head of the work left
        (3, -1, 2), (99, 1, 1),
    ],
)
def test_step(page_id, direction, expected):
    assert step(ROWS, page_id, direction) == expected


def test_step_walks_on_when_everything_has_gold():
    done = [row(1, "done"), row(2, "done")]
    assert step(done, 1, 1) == 2 and step(done, 2, 1) is None


def test_progress_by_site(session, pages):
    assert progress_by_site(session) == {
        "a.example": {"todo": 1, "done": 1, "draft": 0, "skipped": 0},
        "b.example": {"todo": 2, "done": 0, "draft": 1, "skipped": 0},
    }


def test_queue_view_lists_pages_in_order_with_counts(client, pages):
    text = client.get("/").get_data(as_text=True)
    positions = [text.index(f"/pages/{pages[name]}\"") for name in ("todo_differ", "todo_agree", "done_differ")]
    assert positions == sorted(positions)
    assert "5 pages" in text


def test_queue_view_filters_from_the_query_string(client, pages):
    text = client.get("/?status=draft").get_data(as_text=True)
    assert f"/pages/{pages['draft_some']}?status=draft" in text
    assert f"/pages/{pages['todo_agree']}" not in text


@pytest.mark.parametrize(
    "name, direction, target",
    [("todo_differ", "next", "todo_agree"), ("todo_agree", "prev", "todo_differ"),
     ("done_differ", "next", "todo_differ")],
)
def test_step_route_redirects_to_the_neighbour(client, pages, name, direction, target):
    response = client.get(f"/queue/step/{pages[name]}?dir={direction}")
    assert response.status_code == 302
    assert response.location == f"/pages/{pages[target]}"


def test_step_route_past_the_end_goes_back_to_the_queue(client, pages):
    response = client.get(f"/queue/step/{pages['draft_some']}?dir=next&status=draft")
    assert response.location == "/?status=draft"


def test_a_re_run_extraction_updates_the_disagreement(session, pages):
    assert {row.page_id: row for row in queue_rows(session)}[pages["todo_agree"]].disagreement == 1.0
    rerun = session.get(Extraction, 4)  # todo_agree's density: now says something else
    rerun.text = "nine ten eleven twelve"
    session.commit()
    refresh_derived(session, [pages["todo_agree"]])
    session.commit()
    rows = {row.page_id: row for row in queue_rows(session)}
    assert rows[pages["todo_agree"]].disagreement == 0.0
