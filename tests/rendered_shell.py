"""A captured JavaScript shell made straight with the models: its raw response shows only the menu, its rendering
in Chromium the article, and each extractor's output differs between the two (the menu on the raw response, the
article on the rendering)."""

from __future__ import annotations

from sqlalchemy import select
from workbench import add_gold, add_page, new_batch

from webapp.accounts.roles import REVIEWER
from webapp.foundation.settings import settings_of
from webapp.models import Extraction, PageRendering, RenderingExtraction
from webapp.usecases.choose_rendering import choose_scored_rendering
from webapp.usecases.outcome import Actor

HEADING = "Winter timetable"
ARTICLE = ["The winter timetable starts in November and runs until the end of March every year.",
           "Boats leave every forty minutes from the north pier, and the last one leaves at eleven at night."]
GOLD = "\n".join([HEADING, *ARTICLE])
MARKDOWN = "\n\n".join([f"## {HEADING}", *ARTICLE])
MENU = "Home | News"
RITA = Actor("rita", REVIEWER)


def captured_shell(session, extractors: tuple[str, ...] = ("trafilatura",), gold: bool = True) -> int:
    """The shell's page id; each extractor's output is MENU on the raw response and GOLD (html-text: the menu and
    its first paragraph) on the rendering; with `gold`, done article gold GOLD (Markdown: MARKDOWN, a heading and
    two paragraphs)."""
    page = add_page(session, "ferries.example", new_batch(session), None, dict.fromkeys(extractors, MENU),
                    html=f"<html><body><nav>{MENU}</nav><div id=app></div></body></html>")
    if gold:
        add_gold(session, page, text=GOLD, markdown=MARKDOWN, page_type="article", status="done",
                 author="Ann")
    rendering = PageRendering(page_id=page.id, html=f"<html><body><nav>{MENU}</nav><article><h2>{HEADING}</h2>"
                              + "".join(f"<p>{line}</p>" for line in ARTICLE) + "</article></body></html>")
    session.add(rendering)
    session.flush()
    for raw in session.scalars(select(Extraction).where(Extraction.page_id == page.id)):
        text, markdown = (f"{MENU}\n{ARTICLE[0]}", f"{MENU}\n\n{ARTICLE[0]}") if raw.extractor == "html-text" else (
            GOLD, MARKDOWN)
        session.add(RenderingExtraction(rendering_id=rendering.id, extractor=raw.extractor,
                                        fingerprint=raw.fingerprint, text=text, markdown=markdown, accepted=True))
    session.commit()
    return page.id


def score_rendering(app, session, page_id: int) -> None:
    """A reviewer chooses to score the page's rendering."""
    choose_scored_rendering(session, settings_of(app), RITA, page_id, "rendered")
    session.commit()
