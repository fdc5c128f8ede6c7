"""The queue: order (no gold first, most disagreement first), filters, navigation, progress per site."""

from __future__ import annotations

import html
import re
from fractions import Fraction
from urllib.parse import parse_qs, urlsplit

import pytest
from sqlalchemy import select
from workbench import EAGER, NO_CONTENT, add_gold, make_page

from webapp.annotation.disagreement import mean_pairwise_f1
from webapp.annotation.page_filter import PageFilter
from webapp.annotation.page_queue import progress_by_site, queue_counts, queue_rows, step
from webapp.models import Extraction, Page
from webapp.usecases.run_extraction import pages_to_derive, refresh_derived


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


def gold(session, page, status="done", author="Ann", page_type="article"):
    add_gold(session, page, text="gold", page_type=page_type, status=status, author=author)
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
    gold(session, made["draft_some"], status="draft", author="Bob", page_type="listing")
    return {name: page.id for name, page in made.items()}


PLURAL = {"site": "sites", "status": "statuses", "type": "page_types", "batch": "batches", "author": "authors"}


def page_filter(**filters):
    """The PageFilter of the queue form's single values (site=..., status=...)."""
    return PageFilter(**{PLURAL.get(k, k): (v,) if k in PLURAL else v for k, v in filters.items()})


def order(session, **filters):
    return [row.page_id for row in queue_rows(session, page_filter(**filters))]


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
        ({"type": "listing"}, ["draft_some"]),
        ({"author": "Ann"}, ["done_differ"]),
        ({"url_contains": "4%"}, ["todo_differ"]),
        ({"url_contains": "a.example"}, ["todo_agree", "done_differ"]),
    ],
)
def test_filters(session, pages, filters, names):
    assert order(session, **filters) == [pages[name] for name in names]


def test_site_batch_and_verdict_filters(session, pages):
    page = session.get(Extraction, 1).page
    assert order(session, site=page.site.host) == [pages["todo_agree"], pages["done_differ"]]
    assert order(session, batch=page.batch_id) == [page.id]
    session.get(Extraction, 1).accepted = False
    session.commit()
    assert order(session, verdict="rejected") == [page.id]
    assert page.id not in order(session, verdict="accepted")


def stored_fingerprints(session) -> set[str]:
    """Every fingerprint stored (the fixture's extractors stand for the current ones)."""
    return set(session.scalars(select(Extraction.fingerprint)))


def test_disagreement_counts_only_the_candidates_of_current_fingerprints(session, pages):
    page_id = pages["todo_agree"]
    current = stored_fingerprints(session)
    session.add(Extraction(page_id=page_id, extractor="density", fingerprint="density|0|{}", text="old words"))
    session.commit()
    refresh_derived(session, [page_id], current, EAGER, NO_CONTENT)  # the old version's output is no candidate now
    session.commit()
    assert session.get(Page, page_id, populate_existing=True).disagreement == 1.0
    refresh_derived(session, [page_id], current | {"density|0|{}"}, EAGER, NO_CONTENT)
    session.commit()
    assert session.get(Page, page_id, populate_existing=True).disagreement < 1.0


def test_disagreement_is_stored_by_the_run_that_changed_the_extractions(session, pages):
    single = session.get(Page, pages["todo_single"])
    assert single.disagreement is None  # one candidate: nothing to disagree with
    other = session.get(Page, pages["todo_agree"])
    other.disagreement = 0.5  # a value the next run must leave alone: its page is not in the run
    session.add(Extraction(page_id=single.id, extractor="density", fingerprint="d2", text="x"))
    session.commit()
    refresh_derived(session, pages_to_derive(session, []), stored_fingerprints(session), EAGER,  # never measured
                    NO_CONTENT)
    session.commit()
    rows = {row.page_id: row for row in queue_rows(session)}
    assert rows[pages["todo_single"]].disagreement == 1.0
    assert rows[pages["todo_agree"]].disagreement == 0.5


def queue_of(session, keys, hosts=("q.example",)):
    """Pages made like the fixture's (make_page), one per (disagreement, has gold) key, in id order; the
    stored disagreement is set as a finished extraction run would have left it. Hosts alternate."""
    ids = []
    for index, (disagreement, has_gold) in enumerate(keys):
        host = hosts[index % len(hosts)]
        page = make_page(session, url=f"https://{host}/{index}", host=host)
        page.disagreement = disagreement
        session.commit()
        if has_gold:
            gold(session, page)
        ids.append(page.id)
    return ids


def expected_order(keys, ids):
    """The queue order worked out here: no gold first, lowest mean F1 first, no value last, then id."""
    ranked = sorted(zip(keys, ids), key=lambda k: (k[0][1], k[0][0] is None, k[0][0] or 0.0, k[1]))
    return [page_id for _, page_id in ranked]


def walk(session, page_id, direction, f=PageFilter()):
    """The pages visited stepping from ``page_id`` until None (at most a hundred steps)."""
    walked = [page_id]
    while len(walked) <= 100 and (page_id := step(session, page_id, direction, f)) is not None:
        walked.append(page_id)
    return walked


UNKNOWN = "unknown"  # a page id that is not in the queue


@pytest.mark.parametrize(
    "name, direction, filters, expected",
    [
        ("todo_differ", 1, {}, "todo_agree"),
        ("todo_agree", -1, {}, "todo_differ"),
        ("todo_differ", -1, {}, None),  # previous at the head
        ("todo_agree", 1, {}, "todo_single"),  # a value, then no value (fewer than two candidates)
        ("todo_single", -1, {}, "todo_agree"),
        ("todo_single", 1, {}, "done_differ"),  # the last page without gold, then the first with
        ("done_differ", -1, {}, "todo_single"),
        ("draft_some", -1, {}, "done_differ"),
        ("done_differ", 1, {}, "todo_differ"),  # saved page: back to the head of the work left
        ("draft_some", 1, {}, "todo_differ"),
        (UNKNOWN, 1, {}, "todo_differ"),
        (UNKNOWN, -1, {}, "todo_differ"),
        ("todo_agree", 1, {"url_contains": "a.example"}, "done_differ"),
        ("done_differ", 1, {"url_contains": "a.example"}, "todo_agree"),
        ("todo_differ", 1, {"url_contains": "a.example"}, "todo_agree"),  # not in the filtered queue
        ("done_differ", 1, {"status": "done"}, None),
        ("draft_some", -1, {"status": "draft"}, None),
    ],
)
def test_step(session, pages, name, direction, filters, expected):
    page_id = max(pages.values()) + 100 if name == UNKNOWN else pages[name]
    found = step(session, page_id, direction, page_filter(**filters))
    assert found == (pages[expected] if expected else None)


def test_step_walks_on_when_everything_has_gold(session, pages):
    for name in ("todo_differ", "todo_agree", "todo_single"):
        gold(session, session.get(Page, pages[name]))
    names = {page_id: name for name, page_id in pages.items()}
    walked = [names[page_id] for page_id in walk(session, order(session)[0], 1)]
    # by mean F1 (0, 0, 2/3, 1; ties by id), the page with one candidate last, then None
    assert walked == ["done_differ", "todo_differ", "draft_some", "todo_agree", "todo_single"]
    assert step(session, pages["done_differ"], -1) is None


DISAGREEMENTS = [0.5, None, 0.25, 0.5, None, 0.0, 0.5, 1 / 3, 0.25, None, 1 / 3]
QUEUES = {  # which of n pages (in id order) have gold
    "no gold": lambda n: [False] * n,
    "all gold": lambda n: [True] * n,
    "mixed": lambda n: [i % 3 == 1 for i in range(n)],
    "mixed, ties across segments": lambda n: [i % 2 == 0 for i in range(n)],
    "one page without gold": lambda n: [i != n // 2 for i in range(n)],
}


@pytest.mark.parametrize(
    "disagreements",
    [DISAGREEMENTS, [None] * 5, [0.5, 0.25, 0.5, 0.5, 0.0], [None, 0.5, None]],
    ids=["ties and no values", "no values", "ties, all valued", "values after no values"],
)
@pytest.mark.parametrize("queue_page_type", list(QUEUES))
def test_stepping_from_every_page_follows_the_queue_order(session, disagreements, queue_page_type):
    golds = QUEUES[queue_page_type](len(disagreements))
    keys = list(zip(disagreements, golds))
    queue = expected_order(keys, queue_of(session, keys))
    assert order(session) == queue
    has_gold = {page_id: flag for page_id, flag in zip(sorted(queue), golds)}
    work_left = not all(golds)
    for index, page_id in enumerate(queue):
        following = queue[index + 1] if index + 1 < len(queue) else None
        if has_gold[page_id] and work_left:
            following = queue[0]
        assert step(session, page_id, 1) == following, (index, page_id)
        assert step(session, page_id, -1) == (queue[index - 1] if index else None), (index, page_id)
    assert walk(session, queue[-1], -1) == queue[::-1]


@pytest.mark.parametrize("queue_page_type", ["mixed", "no gold", "all gold"])
def test_queue_rows_pages_are_slices_of_the_whole_order(session, queue_page_type):
    keys = list(zip(DISAGREEMENTS, QUEUES[queue_page_type](len(DISAGREEMENTS))))
    queue_of(session, keys, hosts=("q.example", "r.example"))
    site = session.get(Page, session.scalars(select(Page.id).where(Page.url.contains("r.example"))).first())
    for f in (PageFilter(), PageFilter(sites=(site.site.host,))):
        whole = queue_rows(session, f)
        todo = sum(1 for row in whole if not row.has_gold)
        assert queue_counts(session, f) == (todo, len(whole) - todo)
        for limit in (1, 2, 3, 5, len(whole), None):
            for offset in range(len(whole) + 2):  # every offset, across the no gold / gold boundary
                wanted = whole[offset:] if limit is None else whole[offset : offset + limit]
                assert queue_rows(session, f, offset, limit) == wanted, (f, offset, limit)
                counts = queue_counts(session, f)
                assert queue_rows(session, f, offset, limit, counts) == wanted, (f, offset, limit)


ROW = re.compile(r'<tr data-href="/pages/(\d+)')
PAGER = re.compile(r'<a rel="(prev|next)" href="([^"]+)">')


def listing(client, url):
    """The page ids listed by the queue view at ``url``, its text, and its pager links by rel."""
    text = client.get(url).get_data(as_text=True)
    links = {rel: html.unescape(href) for rel, href in PAGER.findall(text)}
    return [int(page_id) for page_id in ROW.findall(text)], text, links


def test_queue_view_shows_100_rows_at_a_time_with_previous_and_next(client, session):
    keys = [(None if i % 7 == 0 else (i % 5) / 4, i % 10 == 0) for i in range(120)]  # 108 to do, 12 gold
    queue_of(session, keys)
    whole = order(session)
    rows, text, links = listing(client, "/")
    assert rows == whole[:100] and "Rows 1–100 of 120 pages." in text
    assert links == {"next": "/?offset=100"}
    rows, text, links = listing(client, links["next"])
    assert rows == whole[100:] and "Rows 101–120 of 120 pages." in text
    assert links == {"prev": "/?offset=0"}
    rows, text, links = listing(client, "/?offset=500")
    assert rows == [] and "120 pages, none from row 501." in text
    assert links == {"prev": "/?offset=400"}

    todo = order(session, status="todo")
    rows, text, links = listing(client, "/?status=todo")
    assert rows == todo[:100] and "Rows 1–100 of 108 pages." in text
    assert parse_qs(urlsplit(links["next"]).query) == {"offset": ["100"], "status": ["todo"]}
    rows, text, links = listing(client, links["next"])
    assert rows == todo[100:] and "Rows 101–108 of 108 pages." in text
    assert list(links) == ["prev"]
    assert parse_qs(urlsplit(links["prev"]).query) == {"offset": ["0"], "status": ["todo"]}


def test_a_short_queue_has_no_pager(client, pages):
    rows, text, links = listing(client, "/")
    assert len(rows) == 5 and "Rows 1–5 of 5 pages." in text and links == {}


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
    refresh_derived(session, pages_to_derive(session, [pages["todo_agree"]]), stored_fingerprints(session), EAGER,
                    NO_CONTENT)
    session.commit()
    rows = {row.page_id: row for row in queue_rows(session)}
    assert rows[pages["todo_agree"]].disagreement == 0.0


# An empty queue, and the end of the queue ----------


def test_an_empty_queue_says_what_to_do_next(client, session):
    from workbench import make_page

    text = client.get("/").get_data(as_text=True)
    assert 'id="queue-empty"' in text and "goldtext import" in text
    make_page(session, host="news.example")
    text = client.get("/?site=other.example").get_data(as_text=True)
    assert 'id="queue-empty"' in text and "No page matches these filters" in text


def test_the_end_of_the_queue_says_so(client, session):
    from workbench import make_page, sign_in

    sign_in(client)
    only = make_page(session).id
    response = client.get(f"/queue/step/{only}?dir=next", follow_redirects=True)
    assert "That was the last page of the queue" in response.get_data(as_text=True)
    response = client.get(f"/queue/step/{only}?dir=prev", follow_redirects=True)
    assert "That was the first page of the queue" in response.get_data(as_text=True)
