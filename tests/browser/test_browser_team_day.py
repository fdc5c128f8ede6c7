"""A lead's day with two annotators and a reviewer, in Chromium at 1366x768, keyboard first, on real pages of
every WCXB page type (docs/annotating.md "A day with the team" walks through it with these screenshots):
the lead assigns the pages to both annotators in the Team console; each annotator opens them from their own
queue, blind to the other, and saves; the checks follow the saves without anyone running them; the reviewer
adjudicates from the adjudication queue; the lead sees each annotator's progress."""

from __future__ import annotations

import gzip
import json

import pytest
from browser_fixtures import logged_in_by_keyboard, until
from corpora import WCXB, WCXB_SAMPLE
from screenshots import HEIGHT, WIDTH, shoot
from sqlalchemy import select
from workbench import PASSWORD, add_account, make_page

from webapp.accounts.roles import ANNOTATOR, REVIEWER
from webapp.corpus.decoding import decode
from webapp.models import Assignment, Gold

pytestmark = [pytest.mark.browser, pytest.mark.corpus(WCXB),
              pytest.mark.settings(OVERLAP=2, CHECK_DELAY_SECONDS=0)]

TYPES = ("article", "forum", "product", "collection", "listing", "documentation", "service")
ANNOTATED = ("documentation", "service")  # the pages both annotators finish in the walk


def one_page_per_type() -> dict[str, tuple[str, str, list[str]]]:
    """type -> (url, html, gold lines) of the sample's first page of that type."""
    files = json.loads((WCXB_SAMPLE / "metadata.json").read_text())["files"]
    found: dict[str, tuple[str, str, list[str]]] = {}
    for file_id, meta in sorted(files.items()):
        if meta["page_type"] in found or meta["split"] != "dev":
            continue
        truth = json.loads((WCXB_SAMPLE / "dev" / "ground-truth" / f"{file_id}.json").read_text())
        html = decode(gzip.decompress((WCXB_SAMPLE / "dev" / "html" / f"{file_id}.html.gz").read_bytes())).text
        lines = [line for line in truth["ground_truth"]["main_content"].split("\n") if line.strip()]
        found[meta["page_type"]] = (truth["url"], html, lines)
    return found


def annotate(tab, base: str, page_id: int, text: str, page_type: str) -> None:
    """From the annotator's own queue: open the page, choose its type, write the text, save with Ctrl+S."""
    tab.goto(f"{base}/")
    tab.locator(f"#own-queue a[href='/pages/{page_id}']").focus()
    with tab.expect_navigation():
        tab.keyboard.press("Enter")
    until(tab, "document.body.dataset.ready === 'yes'")
    tab.select_option("#type", page_type)
    tab.fill("#editor", text)
    tab.keyboard.press("Control+s")
    until(tab, "document.getElementById('save-state').textContent.startsWith('Saved version 1')")


def test_a_lead_s_day_with_two_annotators_and_a_reviewer(browser, live_server, session, runner, run_jobs,
                                                        tmp_path):
    for name, role in (("Lena", REVIEWER), ("Ann", ANNOTATOR), ("Bob", ANNOTATOR), ("Rita", REVIEWER)):
        add_account(session, name, role)
    pages = one_page_per_type()
    assert sorted(pages) == sorted(TYPES)
    ids = {kind: make_page(session, html, url=url, host=url.split("/")[2]).id
           for kind, (url, html, _) in pages.items()}
    session.commit()
    extracted = runner.invoke(args=["extract", "--extractor", "trafilatura", "--extractor", "readability"])
    assert extracted.exit_code == 0, extracted.output
    contexts = []

    def person(name: str):
        """A browser of their own (their own cookies), logged in by keyboard."""
        contexts.append(browser.new_context(viewport={"width": WIDTH, "height": HEIGHT}, device_scale_factor=1))
        return logged_in_by_keyboard(contexts[-1], live_server, name, PASSWORD)

    try:
        lena = person("Lena")
        for name in ("Ann", "Bob"):  # every page to both: each has two places (OVERLAP 2)
            lena.goto(f"{live_server}/team")
            lena.locator("#assign-to").focus()
            lena.keyboard.type(name)
            with lena.expect_navigation():
                lena.keyboard.press("Enter")
            assert "7 " in lena.inner_text(".flashes"), lena.inner_text(".flashes")
        given = session.execute(select(Assignment.author, Assignment.page_id)).all()
        session.rollback()
        assert sorted(given) == sorted((name, page_id) for name in ("Ann", "Bob") for page_id in ids.values())

        for name, cut in (("Ann", 0), ("Bob", 2)):  # Bob leaves out the first two lines of each
            tab = person(name)
            for kind in ANNOTATED:
                annotate(tab, live_server, ids[kind], "\n".join(pages[kind][2][cut:]), kind)
            if name == "Bob":
                assert tab.is_visible("#blind-notice")  # Ann's annotation is not shown to him
                shoot(tab, "team-annotate-blind.png", tmp_path, masked="#candidate-info .duration")

        run_jobs()  # the checks the saves queued (CHECK_DELAY_SECONDS=0), as a worker runs them
        lena.goto(f"{live_server}/checks")
        assert "not checked since the last change" not in lena.inner_text("#check-summary")
        assert "of 2 checked pages" in lena.inner_text("#check-summary")
        shoot(lena, "team-checks.png", tmp_path)

        rita = person("Rita")
        rita.goto(f"{live_server}/adjudication")
        rita.locator(f"a[href='/adjudication/{ids['documentation']}']").focus()
        with rita.expect_navigation():
            rita.keyboard.press("Enter")
        until(rita, "document.body.dataset.ready === 'yes'")
        assert "2 lines are disputed" in rita.inner_text("#consensus-notice")
        shoot(rita, "team-adjudicate.png", tmp_path)
        rita.locator(".annotation[data-index='0'] .take-all").focus()  # Ann's whole text: nothing left out
        rita.keyboard.press("Enter")
        with rita.expect_navigation():
            rita.keyboard.press("Control+s")
        gold = session.scalar(select(Gold.markdown).where(Gold.page_id == ids["documentation"]))
        session.rollback()
        assert gold == "\n".join(pages["documentation"][2])  # Ann's lines as she wrote them (Markdown)

        lena.goto(f"{live_server}/team")
        for name in ("Ann", "Bob"):
            row = lena.inner_text(f"#progress tr[data-annotator='{name}']")
            assert row.split("\t")[1:4] == ["5", "2", "0"], row  # assigned open, done, drafts
        assert "100.0%" in lena.inner_text("#progress tr[data-annotator='Ann']")  # her text is the gold
        assert lena.locator("#progress tr[data-annotator='Rita']").count() == 0  # a reviewer, not an annotator
        shoot(lena, "team-console.png", tmp_path)
    finally:
        for context in contexts:
            context.close()
