"""Open a page for annotation: what the annotate view (views/annotate.py) shows beside the page and what its
gold editor starts from, and what the API answers to `GET /api/pages/<id>/editor` (views/api.py).

The rules: any annotator opens a page (403 below); a page that does not exist is 404. While the page is blind
(overlap above 1, not adjudicated) or a control page given to the actor (annotation/control.py), the editor
starts from the actor's own annotation, and on a control page the candidates show no scores; else from the
page's gold. With nothing saved, it starts from the chosen candidate's Markdown (annotation/prefill.py, as the
PREFILL setting says) without the site's repeated boilerplate lines (annotation/boilerplate.py), the page type
its signals suggest (annotation/type_signals.py), and the metadata fields from their best candidates
(annotation/metadata_prefill.py); with where it started from and each line's origin, for the provenance a save
records (annotation/provenance.py). Reads only."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..accounts.roles import ANNOTATOR
from ..annotation.annotations import annotation_of, is_blind
from ..annotation.article_metadata import FIELDS, expected
from ..annotation.boilerplate import BoilerplateCache, drop_lines, page_boilerplate
from ..annotation.control import is_control_for
from ..annotation.gold import Record
from ..annotation.gold_markdown import editor_markdown, lines_markdown, plain_line
from ..annotation.metadata_prefill import field_candidates, prefilled
from ..annotation.prefill import (
    FIXED_MODE,
    METRIC,
    RANDOM_MODE,
    SITE_BEST,
    Prefill,
    Ranking,
    choose,
    drawn,
    fixed,
    random_pool,
)
from ..annotation.provenance import uniform
from ..annotation.type_signals import NO_SIGNAL, Suggestion, suggest_type
from ..corpus.date_shown import dates_shown
from ..corpus.site_names import known_site
from ..corpus.visible_text import visible_text
from ..extractors.scored_output import scored_outputs
from ..foundation.settings import Settings
from ..foundation.vocabulary import ARTICLE
from ..models import Extraction, Page
from ..results.extractions import current_named
from ..results.leaderboard_figures import leaderboard_extractors, page_scores
from ..results.site_ranking import site_ranking
from .outcome import Actor, Refused, needs


@dataclass(frozen=True)
class OpenedPage:
    """A page opened for annotation by the actor."""

    page: Page
    blind: bool  # the editor edits the actor's own annotation (a blind page, or a control page given to them)
    saved: Record | None  # what the editor edits: the gold, or the actor's own annotation; None before the first save
    candidates: list[dict[str, Any]]  # the newest extraction of each extractor (`candidates`)
    prefill: Prefill | None  # how the prefill was chosen, with nothing saved
    boilerplate: frozenset[str]  # the site's repeated lines the prefill left out
    editor: dict[str, Any]  # what the gold editor starts from (`editor_state`)
    metadata: dict[str, Any]  # what the metadata fields start from (`metadata_editor`)

    def as_dict(self) -> dict[str, Any]:
        """The API's answer: the editor's state, the metadata fields', the prefill and the boilerplate."""
        return {"page_id": self.page.id, "blind": self.blind, "editor": self.editor, "metadata": self.metadata,
                "prefill": self.prefill.as_dict() if self.prefill else None, "boilerplate": sorted(self.boilerplate)}


@needs(ANNOTATOR, "Only an annotator opens a page to annotate.")
def open_page(session: Session, settings: Settings, actor: Actor, page_id: int, boilerplate: BoilerplateCache
              ) -> OpenedPage:
    """The page as the actor opens it to annotate (``boilerplate``: the process's cache of each site's repeated
    lines); Refused(404) when there is no such page."""
    page = session.get(Page, page_id)
    if page is None:
        raise Refused(404, f"No page {page_id}.")
    found = candidates(session, settings, page_id)
    control = is_control_for(session, page_id, actor.name)
    blind = is_blind(page, settings.overlap) or control
    if control:
        found = [{**c, "saved_scores": {}} for c in found]
    saved = annotation_of(session, page_id, actor.name) if blind else page.gold
    prefill = prefill_of(session, settings, page, found, actor.name) if saved is None else None
    lines = site_boilerplate(session, page, boilerplate)
    verdicts = [(c["accepted"], c["guard_reason"]) for c in found if not c["error"]]
    suggested = suggest_type(page.facts or {}, page.url, settings.taxonomy, verdicts) if saved is None else None
    editor = editor_state(saved, found, prefill, lines, suggested)
    metadata = metadata_editor(session, settings, page, saved, found, prefill, editor["type"])
    return OpenedPage(page, blind, saved, found, prefill, lines, editor, metadata)


def candidates(session: Session, settings: Settings, page_id: int) -> list[dict[str, Any]]:
    """The newest extraction of each extractor, the default extractor first, then by name, with the output scored
    for the page (extractors/scored_output.py: on its rendering in Chromium where the team chose to score that)
    and its cached per-page scores against the saved gold."""
    newest: dict[str, Extraction] = {}
    for row in session.scalars(
        select(Extraction).where(Extraction.page_id == page_id).order_by(Extraction.id)
    ):
        newest[row.extractor] = row
    default = settings.default_extractor
    ordered = sorted(newest.values(), key=lambda e: (e.extractor != default, e.extractor))
    saved = page_scores(session, settings.metrics, page_id)
    outputs = scored_outputs(session, [e.id for e in ordered])
    return [
        {
            "name": e.extractor,
            "fingerprint": e.fingerprint,
            "text": outputs[e.id].text,
            "markdown": outputs[e.id].markdown,
            "accepted": outputs[e.id].accepted,
            "guard_reason": outputs[e.id].guard_reason,
            "duration_ms": round(outputs[e.id].duration_ms, 1),
            "error": outputs[e.id].error,
            "incomplete": e.incomplete,
            "on_rendering": outputs[e.id].on_rendering,
            "saved_scores": saved.get(e.fingerprint, {}).get("metrics", {}),
            "metadata": e.article_metadata or {},
        }
        for e in ordered
    ]


def editor_state(saved: Record | None, found: list[dict[str, Any]], prefill: Prefill | None,
                 boilerplate: frozenset[str] = frozenset(), suggested: Suggestion | None = None) -> dict[str, Any]:
    """What the gold editor starts from (as Markdown, which it edits: `text` below): the saved gold (or,
    while the page is blind, the annotator's own annotation), or on a first visit the chosen candidate's
    Markdown without the site's repeated boilerplate lines, and the page type its signals suggest; with where
    it started from and each line's origin."""
    gold = saved
    if gold is not None:
        markdown = editor_markdown(gold)
        return {"text": markdown, "type": gold.page_type, "status": gold.status, "version": gold.version,
                "prefilled_from": None, "type_signal": None,
                "start": uniform({"source": "gold", "version": gold.version}, markdown, "gold")}
    chosen = next((c for c in found if prefill and c["name"] == prefill.extractor), None)
    markdown = (chosen["markdown"] or lines_markdown(chosen["text"])) if chosen else ""
    text = drop_lines(markdown, boilerplate, key=plain_line)[0]
    suggested = suggested or Suggestion(ARTICLE, NO_SIGNAL)
    start = uniform({"source": "none"}, text, "typed") if not chosen or prefill is None else uniform(
        {"source": "extractor", "name": chosen["name"], "fingerprint": chosen["fingerprint"],
         "basis": prefill.basis}, text, "prefill")
    return {"text": text, "type": suggested.page_type, "status": "done", "version": 0,
            "prefilled_from": chosen["name"] if chosen else None, "type_signal": suggested.signal, "start": start}


def site_boilerplate(session: Session, page: Page, cache: BoilerplateCache) -> frozenset[str]:
    """The page's site's repeated lines but its own title, from the process's cache (see
    annotation/boilerplate.py); none when the page's site is unknown."""
    if known_site(page.site.host) is None:
        return frozenset()
    return page_boilerplate(cache.lines(session, page.site_id), page.facts)


def prefill_of(session: Session, settings: Settings, page: Page, found: list[dict[str, Any]], who: str) -> Prefill:
    """The prefill of a page without gold (or of `who`'s own annotation) as the PREFILL setting says: the
    site's best extractor once the site has enough gold, else the default (its ranking computed once per
    epoch of the score change log); the default always; or one drawn for this page and annotator."""
    usable = {c["name"] for c in found if not c["error"]}
    if settings.prefill == FIXED_MODE:
        return fixed(settings.default_extractor, usable)
    if settings.prefill == RANDOM_MODE:
        with_text = [c["name"] for c in found if not c["error"] and c["text"].strip()]
        return drawn(page.id, who, *random_pool(with_text, [c["name"] for c in found if c["accepted"]],
                                                settings.prefill_pool))
    host = known_site(page.site.host)
    pages, ranked = (0, []) if host is None else ranked_site(session, settings, host)
    return choose(ranked, pages, host, settings.min_site_pages, settings.default_extractor, usable)


def ranked_site(session: Session, settings: Settings, host: str, metric_name: str = METRIC) -> tuple[int, Ranking]:
    """(gold pages, ranking) of a site by a metric, computed once per epoch of the score change log."""
    metric = settings.metrics[metric_name]
    shared = settings.shared
    registered = current_named(session, settings.registry)
    with shared.synced(session):
        named = leaderboard_extractors(shared, metric_name, registered, False)
        return shared.remembered(("prefill", metric_name, host, tuple(named.items())),
                                 lambda: site_ranking(shared.cache, metric, named, host))


def field_rankings(session: Session, settings: Settings, page: Page) -> dict[str, list[str]]:
    """Each metadata field's extractors best first on the page's site, by the field's metric (`title`,
    `authors`, `published`) where the leaderboard has one and the site has enough gold (PREFILL site-best);
    a field without is left out (annotation/metadata_prefill.py falls back to the text's prefill order)."""
    host = known_site(page.site.host)
    if settings.prefill != SITE_BEST or host is None:
        return {}
    found = {}
    for field in FIELDS:
        if field in settings.metrics:
            pages, ranked = ranked_site(session, settings, host, field)
            if pages >= settings.min_site_pages:
                found[field] = [name for name, _ in ranked]
    return found


def metadata_editor(session: Session, settings: Settings, page: Page, saved: Record | None,
                    found: list[dict[str, Any]], prefill: Prefill | None, page_type: str) -> dict[str, Any]:
    """What the metadata fields above the gold editor start from: the saved fields (their origin "gold"), or
    each field from its best candidate; every candidate's values; each date as the page shows it
    (corpus/date_shown.py); the fields the page type expects."""
    usable = [{"name": c["name"], "metadata": c["metadata"]} for c in found if not c["error"]]
    if saved is not None:
        start = saved.article_metadata or {}
        chosen = {field: {"value": value, "from": "gold"} for field, value in start.items()}
    else:
        fallback = [prefill.extractor] if prefill is not None and prefill.extractor else []
        chosen = prefilled(usable, field_rankings(session, settings, page), fallback)
    values = field_candidates(usable)
    dates = [v for v in [(chosen.get("published") or {}).get("value"), *(c["value"] for c in values["published"])]
             if isinstance(v, str)]
    lines = visible_text(session.scalar(select(Page.html).where(Page.id == page.id)) or "").split("\n") if dates else []
    return {"start": {field: said["value"] for field, said in chosen.items()},
            "origins": {field: said["from"] for field, said in chosen.items()},
            "candidates": values, "shown": dates_shown(dates, lines), "expected": list(expected(page_type)),
            "fields": list(FIELDS)}
