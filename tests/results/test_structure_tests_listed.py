"""The structure tests of a page's Markdown gold are listed, exported and run against its extractions the
same way by `goldtext structure-tests` (JSON Lines) and GET /api/pages/ID/structure-tests."""

from __future__ import annotations

import json

from sqlalchemy import select
from workbench import add_gold, make_page

from webapp.models import Extraction

GOLD = "# Guide\n\n## Install\n\n- pip\n- conda\n"
MARKDOWN = {"keeps": GOLD, "flattens": "Guide\n\nInstall\n\npip conda\n"}


def structured_page(session, gold=GOLD):
    """A done page whose gold and extractions carry Markdown."""
    page = make_page(session, candidates={name: "Guide Install pip conda" for name in MARKDOWN})
    add_gold(session, page, text="Guide Install pip conda", page_type="article", status="done", author="Ann")
    page.gold.markdown = gold
    for extraction in session.scalars(select(Extraction).where(Extraction.page_id == page.id)):
        extraction.markdown = MARKDOWN[extraction.extractor]
    session.commit()
    return page


def test_the_command_exports_every_test_with_each_extractors_outcome(session, cli):
    page = structured_page(session)
    other = structured_page(session, gold="plain text, nothing to test")
    lines = [json.loads(line) for line in cli("structure-tests", "--extractor", "all").splitlines()]
    assert [(row["page_id"], row["id"], row["passed"]) for row in lines] == [
        (page.id, "heading-1", {"flattens": False, "keeps": True}),
        (page.id, "heading-2", {"flattens": False, "keeps": True}),
        (page.id, "list-1", {"flattens": False, "keeps": True}),
        (page.id, "order-1", {"flattens": True, "keeps": True}),
    ]
    assert lines[0] == {"page_id": page.id, "url": page.url, "id": "heading-1", "kind": "heading",
                        "description": "heading level 1 'Guide'", "expected": {"level": 1, "text": "Guide"},
                        "passed": {"flattens": False, "keeps": True}}
    only = [json.loads(line) for line in cli("structure-tests", "--page", other.id, "--page", page.id,
                                             "--extractor", "keeps").splitlines()]
    assert [row["passed"] for row in only] == [{"keeps": True}] * 4
    assert all(row["passed"] == {} for row in map(json.loads, cli("structure-tests").splitlines()))


def test_the_api_answers_the_same_tests(session, cli, client):
    page = structured_page(session)
    exported = [json.loads(line) for line in cli("structure-tests", "--extractor", "all").splitlines()]
    answer = client.get(f"/api/pages/{page.id}/structure-tests").get_json()
    assert answer == {"page_id": page.id, "tests": exported}
    named = client.get(f"/api/pages/{page.id}/structure-tests?extractor=flattens").get_json()
    assert [test["passed"] for test in named["tests"]] == [
        {"flattens": passed} for passed in (False, False, False, True)]
    assert client.get("/api/pages/999999/structure-tests").status_code == 404
