"""An extraction run after a capture reaches the captured pages' renderings in Chromium: an extractor added
later gets its output on every rendering that lacks it, as on every raw response, and a page whose team scores
its rendering is scored on that new output (not on the raw response it fell back to)."""

from __future__ import annotations

import pytest
from sqlalchemy import select
from workbench import add_gold, add_page, new_batch

from webapp.accounts.roles import REVIEWER
from webapp.foundation.settings import settings_of
from webapp.models import Extraction, PageRendering, RenderingExtraction
from webapp.usecases.choose_rendering import choose_scored_rendering
from webapp.usecases.outcome import Actor

ARTICLE = ("The winter timetable starts in November and runs until the end of March every year. "
           "Boats leave every forty minutes from the north pier, and the last boat leaves at eleven at night.")
MORE = ("Tickets bought on board cost two euros more than those bought at the kiosk beside the pier, "
        "which opens half an hour before the first boat and closes after the last one has left.")
RENDERED = ("<html><head><title>Ferries</title></head><body><nav><a href=/>Home</a> <a href=/news>News</a></nav>"
            f"<main><article><h1>Winter timetable</h1><p>{ARTICLE}</p><p>{MORE}</p></article></main></body></html>")


@pytest.fixture
def captured(session):
    """A JavaScript shell captured with --render: trafilatura's output on its raw response (the menu) is stored,
    nothing on its rendering yet (trafilatura and html-text came after the capture)."""
    page = add_page(session, "ferries.example", new_batch(session), None, {"trafilatura": "Home | News"},
                    html="<html><body><nav>Home | News</nav><div id=app></div></body></html>")
    add_gold(session, page, text=f"{ARTICLE}\n{MORE}", page_type="article", status="done", author="Ann")
    session.add(PageRendering(page_id=page.id, html=RENDERED))
    session.commit()
    return page.id


def outputs(session, page_id: int) -> dict[str, str]:
    session.rollback()
    return dict(session.execute(select(RenderingExtraction.extractor, RenderingExtraction.text)
                                .join(PageRendering, PageRendering.id == RenderingExtraction.rendering_id)
                                .where(PageRendering.page_id == page_id)).all())


def f1(client) -> float:
    data = client.get("/api/leaderboard", query_string={"bootstrap": 0, "extractor": "trafilatura"}).get_json()
    return data["extractors"]["trafilatura"]["f1"]


def test_a_later_extract_reaches_the_renderings_that_lack_its_extractors(cli, session, captured):
    cli("extract", "--extractor", "html-text")
    assert set(outputs(session, captured)) == {"html-text"}
    assert ARTICLE in outputs(session, captured)["html-text"]
    assert session.scalar(select(Extraction.text).where(Extraction.page_id == captured,
                                                        Extraction.extractor == "html-text")) is not None
    cli("extract", "--extractor", "trafilatura", "--extractor", "html-text")
    assert set(outputs(session, captured)) == {"html-text", "trafilatura"}
    assert ARTICLE in outputs(session, captured)["trafilatura"]


def test_a_page_scored_on_its_rendering_is_scored_on_the_new_output(app, cli, client, session, captured):
    choose_scored_rendering(session, settings_of(app), Actor("rita", REVIEWER), captured, "rendered")
    session.commit()
    assert f1(client) == pytest.approx(0.0)  # no output on the rendering yet: the raw response's
    cli("extract", "--extractor", "trafilatura")
    assert f1(client) > 0.9
