"""Checks that follow the gold, in Chromium: an annotator's saves queue one check job (several saves in a
short time make one run); until it has run, the Checks page shows the page as not checked since the last
change, never as passing; once it has run, the page's failure shows with the gold version it was checked
against."""

from __future__ import annotations

import pytest
from browser_fixtures import signed_in, until
from sqlalchemy import select
from workbench import add_gold, make_page

from webapp.models import Job

pytestmark = [pytest.mark.browser, pytest.mark.settings(CHECK_DELAY_SECONDS=0)]

HTML = ("<html><body><h1>Harbour news</h1><p>The harbour opened a new quay for ferries this week.</p>"
        "<p>Ferries to the islands leave from the new quay on Monday.</p></body></html>")
GOLD = ("Harbour news\nThe harbour opened a new quay for ferries this week.\n"
        "Ferries to the islands leave from the new quay on Monday.")


def save(tab, text: str, version: int) -> None:
    tab.fill("#editor", text)
    tab.keyboard.press("Control+s")
    until(tab, f"document.getElementById('save-state').textContent.startsWith('Saved version {version}')")


def test_saves_queue_one_check_and_the_checks_page_never_shows_a_changed_page_as_passing(
        laptop, live_server, session, runner, run_jobs):
    page = make_page(session, html=HTML, url="https://harbour.example/quay")
    add_gold(session, page, text=GOLD, page_type="article", status="done", author="import",
             article_metadata={"title": None, "authors": None, "published": None})  # none on the page: it passes
    session.commit()
    page_id = page.id
    assert runner.invoke(args=["check"]).exit_code == 0  # the imported gold passes

    tab = signed_in(laptop, live_server, "Ann")
    tab.goto(f"{live_server}/pages/{page_id}")
    until(tab, "document.body.dataset.ready === 'yes'")
    save(tab, GOLD + "</p>", 2)  # markup left in the gold
    save(tab, GOLD + " &amp;</p>", 3)

    tab.goto(f"{live_server}/checks")
    assert "0 of 0 checked pages fail a check." in tab.inner_text("#check-summary")
    assert "1 page is not checked since the last change" in tab.inner_text("#check-summary")
    stale = tab.inner_text("#check-stale")
    assert str(page_id) in stale and "version 3" in stale and "against gold version 1" in stale
    assert not tab.is_visible("#check-passing")

    jobs = [job.params for job in session.scalars(select(Job).where(Job.kind == "check", Job.status == "queued"))]
    session.rollback()
    assert len(jobs) == 1 and jobs[0]["follow"]  # two saves, one run
    run_jobs()
    tab.reload()
    assert "1 of 1 checked pages fail a check." in tab.inner_text("#check-summary")
    assert not tab.is_visible("#check-stale")
    failing = tab.inner_text("#check-pages")
    assert "markup" in failing and "against gold version 3" in failing
