"""One page filter, one meaning per field: the queue, the leaderboard's cache and exports agree."""

from __future__ import annotations

import pytest
from workbench import add_gold, make_page

from webapp.annotation.annotations import save_annotation, void
from webapp.annotation.page_filter import PageFilter
from webapp.annotation.page_queue import queue_rows
from webapp.exports.selection import count_pages
from webapp.results.cache import CachedRow


def test_the_annotator_is_the_author_of_the_current_text_in_the_queue_and_in_exports(session):
    page = make_page(session, url="https://a.example/1")
    add_gold(session, page, text="first", page_type="article", status="done", author="Ann")
    add_gold(session, page, text="second", page_type="article", status="done", author="Bob")
    session.commit()
    for name, expected in (("Ann", []), ("Bob", [page.id])):
        wanted = PageFilter(authors=(name,))
        assert [row.page_id for row in queue_rows(session, wanted)] == expected
        assert count_pages(session, wanted) == len(expected)


def test_the_cache_rows_use_the_same_meaning():
    row = CachedRow(1, "fp", {}, "a.example", "article", 3, "Bob")
    assert PageFilter(authors=("Bob",), sites=("a.example",), batches=(3,)).admits(row)
    assert not PageFilter(authors=("Ann",)).admits(row)
    assert not PageFilter(page_types=("listing",)).admits(row)


@pytest.mark.parametrize("field", [{"statuses": ("draft",)}, {"verdict": "rejected"}, {"url_contains": "a."}])
def test_scored_rows_refuse_a_field_they_cannot_answer(field):
    with pytest.raises(ValueError, match="scored pages cannot be filtered by"):
        PageFilter(**field).check_scored()


def test_the_todo_status_combines_with_gold_statuses(session):
    todo = make_page(session, url="https://a.example/todo")
    draft = make_page(session, url="https://a.example/draft")
    done = make_page(session, url="https://a.example/done")
    add_gold(session, draft, text="d", page_type="article", status="draft", author="Ann")
    add_gold(session, done, text="d", page_type="article", status="done", author="Ann")
    session.commit()
    shown = {row.page_id for row in queue_rows(session, PageFilter(statuses=("todo", "draft")))}
    assert shown == {todo.id, draft.id}


def test_a_voided_annotation_does_not_make_a_page_adjudicated(session):
    pages = [make_page(session, url=f"https://a.example/{n}") for n in (1, 2)]
    for page in pages:
        for name in ("Ann", "Bob"):
            save_annotation(session, page, name, base_version=0, text="t", page_type="article", status="done")
        add_gold(session, page, text="t", page_type="article", status="done", author="Rex")
    void(session, pages[1].annotations[1], by="Ada")
    session.commit()
    adjudicated = PageFilter(adjudicated=True)
    assert [row.page_id for row in queue_rows(session, adjudicated)] == [pages[0].id]
    assert count_pages(session, adjudicated) == 1


def test_the_leaderboard_refuses_a_queue_only_filter(client):
    response = client.get("/api/leaderboard?status=draft")
    assert response.status_code == 400
    assert "cannot be filtered by statuses" in response.get_json()["message"]
