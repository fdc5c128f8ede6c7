"""PREFILL=random in Chromium: the prefill is drawn among the candidates the accept guard accepted, never a
rejected fragment, and its reason names the pool; PREFILL_POOL=any draws among every candidate with text."""

from __future__ import annotations

import pytest
from browser_fixtures import signed_in, until
from sqlalchemy import update
from workbench import make_page

from webapp.annotation.prefill import draw
from webapp.models import Extraction

pytestmark = pytest.mark.browser

HTML = "<html><body><h1>Harbour news</h1><p>The harbour opened a new quay for ferries this week.</p></body></html>"
CANDIDATES = {"trafilatura": "Harbour news\nThe harbour opened a new quay for ferries this week.",
              "density": "Menu"}
NAMES = [f"Annotator {n}" for n in range(12)]


def prefilled_from(laptop, live_server, page_id, names):
    found = {}
    for name in names:
        tab = signed_in(laptop, live_server, name)
        tab.goto(f"{live_server}/pages/{page_id}")
        until(tab, "document.body.dataset.ready === 'yes'")
        found[name] = tab.inner_text("#prefill-notice")
        tab.close()
    return found


def rejected_page(session):
    page = make_page(session, HTML, candidates=CANDIDATES)
    session.execute(update(Extraction).where(Extraction.page_id == page.id, Extraction.extractor == "density")
                    .values(accepted=False, guard_reason="too short"))
    session.commit()
    return page.id


@pytest.mark.settings(PREFILL="random")
def test_a_random_prefill_is_never_a_candidate_the_guard_rejected(laptop, live_server, session):
    page_id = rejected_page(session)
    unlucky = [name for name in NAMES if draw(page_id, name, set(CANDIDATES)) == "density"]
    assert unlucky  # drawn among every candidate, these would get the rejected fragment
    for notice in prefilled_from(laptop, live_server, page_id, unlucky).values():
        assert notice.startswith("Prefilled from trafilatura")


@pytest.mark.settings(PREFILL="random", PREFILL_POOL="any")
def test_the_pool_setting_draws_among_every_candidate_with_text(laptop, live_server, session):
    page_id = rejected_page(session)
    unlucky = [name for name in NAMES if draw(page_id, name, set(CANDIDATES)) == "density"]
    for notice in prefilled_from(laptop, live_server, page_id, unlucky[:1]).values():
        assert notice.startswith("Prefilled from density")
