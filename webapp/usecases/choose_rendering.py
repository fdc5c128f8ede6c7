"""Choose which rendering of a captured page the leaderboard scores: its raw response (every page's, and
the default) or its rendering in Chromium (a JavaScript shell whose article is only in the rendering).

The rules: only a reviewer or an admin chooses (403), for the team; the page must exist (404) and, to
score its rendering, have one (409: it was not captured with --render); the choice is stored on the page
(`Page.scored_rendering`), the page's counts of every metric dropped so that they are computed again from
the chosen output (the eager metrics at once, the lazy ones at their next refresh), its disagreement measured
again between the outputs now scored (extractors/scored_output.py), and the choice audited
with what it was before. Choosing what is already chosen changes nothing and is not audited."""

from __future__ import annotations

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from ..accounts.audit_actions import Action
from ..accounts.roles import REVIEWER
from ..annotation.disagreement import refresh_disagreement
from ..annotation.predicted_quality import refresh_predicted_quality
from ..extractors.extraction_service import current_extractors
from ..foundation.settings import Settings
from ..models import RENDERED, Extraction, Page, PageRendering, Score
from ..results.store import gold_changed
from .outcome import Actor, Refused, needs

RAW = "raw"
CHOICES = (RAW, RENDERED)


@needs(REVIEWER, "Only a reviewer or an admin chooses which rendering of a page is scored.")
def choose_scored_rendering(session: Session, settings: Settings, actor: Actor, page_id: int,
                            rendering: str) -> Page:
    """The page, scored from now on on `rendering` (RAW or RENDERED); Refused by the rules above. Never
    commits."""
    if rendering not in CHOICES:
        raise Refused(400, f"A page is scored on its {' or its '.join(CHOICES)} rendering, not {rendering!r}.")
    page = session.get(Page, page_id)
    if page is None:
        raise Refused(404, f"There is no page {page_id}.")
    has_rendering = session.scalar(select(PageRendering.id).where(PageRendering.page_id == page_id)) is not None
    if rendering == RENDERED and not has_rendering:
        raise Refused(409, f"Page {page_id} has no rendering in Chromium: it was not captured with --render.")
    before = page.scored_rendering or RAW
    if before == rendering:
        return page
    page.scored_rendering = RENDERED if rendering == RENDERED else None
    session.execute(delete(Score).where(Score.extraction_id.in_(
        select(Extraction.id).where(Extraction.page_id == page_id))))
    gold_changed(session, settings.eager, page_id, no_content=settings.taxonomy.no_content)
    current = [e.fingerprint for e in current_extractors(session, settings.registry) if not e.parts]
    refresh_disagreement(session, [page_id], fingerprints=current)  # between the outputs now scored
    refresh_predicted_quality(session, [page_id], fingerprints=current)  # for the queue's least confident first
    actor.record(session, Action.PAGE_SCORED_RENDERING, f"page {page_id}", {"from": before, "to": rendering})
    return page
