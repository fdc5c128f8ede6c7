"""The leaderboard's choice as a pipeline configuration: the extractor (or each page type's), the challenger, the
pins of every extractor used, the run settings of `goldtext extract`, and the facts -> type table learned from
the gold. Takes a session and a synced ScoreCache; never commits.

With `by="type"`, each type with at least MIN_TYPE_PAGES scored gold pages runs its own winner; its fallback,
whose text is taken when the accept guard rejects the winner's, is the overall winner (or, when the type's winner is the
overall winner, the type's runner-up). A type with fewer scored pages runs the overall winner, with the overall
runner-up as its fallback. Each route states why in the configuration. Extractors are ranked by F1 over the gold
pages that every extractor with scores has scored, as `goldtext score` ranks them; site-rules where it applied no
rule on a board's pages is its fallback, trafilatura, there, and is never chosen for it (as the leaderboard shows it).
A composition (extractors/compositions.py) is exported by name as one step: its parts are pinned and run on each
page, and the step composes their outputs as the app does (configuration's "composition": its name, fingerprint and
definition). Compositions are never chosen by the leaderboard here.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..extractors.base import Extractor
from ..extractors.composing import EVERY_OTHER
from ..extractors.extraction_service import SITE_RULES, RunSettings, current_extractors
from ..foundation.vocabulary import DONE
from ..models import ExtractorVariant, Gold, Page
from ..results.cache import ScoreCache
from ..results.leaderboard_figures import leaderboard, scored_fingerprints
from ..results.site_rule_figures import fallback_twins, ruled_pages
from .pins import Pin, library_versions
from .plan import BY_EXTRACTOR, BY_TYPE, EXECUTORS, FORMAT
from .routing import DEFAULT_TYPE, fact_table

MIN_TYPE_PAGES = 5
NO_CHALLENGER = "none"


class NoChoice(ValueError):
    """The leaderboard cannot choose (no scored page), or a named extractor is unknown."""


@dataclass(frozen=True)
class PipelineRequest:
    """What `goldtext export --format datatrove` asks: one extractor, or the winner of each type (by="type");
    the challenger (None: the runner-up, "none": no challenger); how much of each page's HTML to keep; the executor
    the script runs on when its command line names none."""

    extractor: str | None = None
    by: str | None = None
    challenger: str | None = None
    keep_html_bytes: int = 0
    metric: str = "tokens"
    executor: str = EXECUTORS[0]

    def check(self) -> None:
        if (self.extractor is None) == (self.by is None):
            raise NoChoice("give either --extractor NAME or --by type")
        if self.by not in (None, BY_TYPE):
            raise NoChoice(f"--by takes {BY_TYPE!r}, not {self.by!r}")
        if self.keep_html_bytes < 0:
            raise NoChoice("--keep-html-bytes cannot be negative")
        if self.executor not in EXECUTORS:
            raise NoChoice(f"--executor takes one of {', '.join(EXECUTORS)}, not {self.executor!r}")

    def command(self, out: str) -> str:
        words = ["goldtext", "export", "--format", "datatrove", "--out", out]
        words += ["--extractor", self.extractor] if self.extractor else ["--by", str(self.by)]
        words += ["--challenger", self.challenger] if self.challenger else []
        words += ["--keep-html-bytes", str(self.keep_html_bytes)] if self.keep_html_bytes else []
        words += ["--metric", self.metric] if self.metric != "tokens" else []
        words += ["--executor", self.executor] if self.executor != EXECUTORS[0] else []
        return " ".join(words)


def ranked(figures: Mapping[str, Mapping[str, Any]], twins: Collection[str] = ()) -> list[tuple[str, float]]:
    """(extractor, F1) best first, the extractors without a figure left out, and so are `twins`: those that
    on these pages are only another extractor (site-rules where it applied no rule is trafilatura)."""
    scored = [(name, f["f1"]) for name, f in figures.items()
              if f.get("f1") is not None and f.get("pages") and name not in twins]
    return sorted(scored, key=lambda item: (-item[1], item[0]))


def bases(session: Session, registry: Mapping[str, Extractor]) -> dict[str, str]:
    """Variant name -> the registered extractor it is built on."""
    rows = session.execute(select(ExtractorVariant.name, ExtractorVariant.base))
    return {name: base for name, base in rows if name not in registry}


def routes_by_type(
    groups: Mapping[str, Mapping[str, Any]], page_types: Sequence[str], overall: list[tuple[str, float]]
) -> dict[str, dict[str, Any]]:
    winner = overall[0][0]
    runner_up = overall[1][0] if len(overall) > 1 else None
    routes = {}
    for page_type in page_types:
        group = groups.get(page_type, {"pages": 0, "extractors": {}})
        order = ranked(group["extractors"], group.get("same_as", {}))
        if group["pages"] >= MIN_TYPE_PAGES and order:
            best, f1 = order[0]
            fallback = winner if best != winner else (order[1][0] if len(order) > 1 else None)
            why = (f"best F1 ({f1:.3f}) on the {group['pages']} scored gold pages of this type; "
                   f"fallback when the guard rejects its text: {fallback or 'none'}"
                   + (" (the overall winner)" if fallback == winner else " (this type's runner-up)"))
        else:
            best, fallback = winner, runner_up
            why = (f"only {group['pages']} scored gold pages of this type (fewer than {MIN_TYPE_PAGES}): the overall "
                   f"winner; fallback when the guard rejects its text: {fallback or 'none'} (the overall runner-up)")
        routes[page_type] = {"extractor": best, "fallback": fallback, "why": why}
    return routes


def scored_leaderboard(session: Session, registry: Mapping[str, Extractor], cache: ScoreCache, metric: str,
                       by: str | None
                       ) -> tuple[dict[str, Any], list[tuple[str, float]], dict[str, Extractor]]:
    """(the leaderboard of every extractor with scores, by type or site when asked, without bootstrap; its
    extractors ranked as `ranked` ranks them; every current extractor by name). Compositions are left out of
    it: a choice is made among the extractors that run."""
    available = {e.name: e for e in current_extractors(session, registry) if not e.parts}
    scored = scored_fingerprints(cache, metric)
    fingerprints = {name: e.fingerprint for name, e in available.items() if e.fingerprint in scored}
    twins = (fallback_twins(fingerprints, ruled_pages(session, fingerprints[SITE_RULES]))
             if SITE_RULES in fingerprints else None)
    board = leaderboard(cache, metric, fingerprints, bootstrap=0, by=by, same_as=twins)
    return board, ranked(board["extractors"], board.get("same_as", {})), available


def route_winners(session: Session, registry: Mapping[str, Extractor], cache: ScoreCache, by: str,
                  metric: str = "tokens") -> dict[str, str]:
    """A route's table from the leaderboard (extractors/compositions.py): each page type's (or site's) winner
    where the group has at least MIN_TYPE_PAGES scored gold pages and its winner is not the overall one, and the
    overall winner for every other page ("*"); NoChoice when no extractor has scores."""
    board, overall, _ = scored_leaderboard(session, registry, cache, metric, by)
    if not overall:
        raise NoChoice(f"no extractor has a score on gold pages yet: a route by {by} needs the leaderboard")
    table = {EVERY_OTHER: overall[0][0]}
    for key, group in sorted(board.get("groups", {}).items()):
        order = ranked(group["extractors"], group.get("same_as", {}))
        if group["pages"] >= MIN_TYPE_PAGES and order and order[0][0] != overall[0][0]:
            table[key] = order[0][0]
    return table


def gold_fact_table(session: Session) -> dict[str, dict[str, int]]:
    """The facts -> gold type table of the done gold (crawl/routing.py `fact_table`)."""
    gold = session.execute(select(Page.facts, Gold.page_type).join(Gold, Gold.page_id == Page.id)
                           .where(Gold.status == DONE))
    return fact_table((facts or {}, page_type) for facts, page_type in gold)


def pipeline_config(
    session: Session, registry: Mapping[str, Extractor], cache: ScoreCache, request: PipelineRequest,
    settings: RunSettings, page_types: Sequence[str],
    command: str = "",
) -> dict[str, Any]:
    """The configuration (pipeline.json) of the request; NoChoice says why there is none."""
    request.check()
    try:
        named = [n for n in (request.extractor, request.challenger) if n and n != NO_CHALLENGER]
        available = {e.name: e for e in current_extractors(session, registry, named)} if named else {}
    except ValueError as error:
        raise NoChoice(str(error)) from error
    board, overall, known = scored_leaderboard(session, registry, cache, request.metric,
                                               BY_TYPE if request.by else None)
    available = known | available
    routes: dict[str, dict[str, Any]] = {}
    if request.by:
        if not overall:
            raise NoChoice("no extractor has a score on gold pages yet: --by type needs the leaderboard")
        main = overall[0][0]
        routes = routes_by_type(board.get("groups", {}), page_types, overall)
    else:
        main = str(request.extractor)
    if request.challenger == NO_CHALLENGER:
        challenger = None
    elif request.challenger:
        challenger = request.challenger
    else:
        challenger = next((name for name, _ in overall if name != main), None)
    composition = available[main] if main in available and available[main].parts else None
    used = [*(composition.parts if composition else [main]), *(c for c in [challenger] if c)]
    for route in routes.values():
        used += [n for n in (route["extractor"], route["fallback"]) if n]
    variant_bases = bases(session, registry)
    pins = [Pin.of(available[name], variant_bases.get(name, name)).as_dict() for name in dict.fromkeys(used)]
    scores = {name: round(f1, 4) for name, f1 in overall}
    return {
        "format": FORMAT,
        "created": datetime.now(UTC).isoformat(timespec="seconds"),
        "command": command,
        "mode": BY_TYPE if request.by else BY_EXTRACTOR,
        "extractor": main,
        "challenger": challenger,
        "routes": routes,
        "default_type": DEFAULT_TYPE,
        "fact_table": gold_fact_table(session),
        "extractors": pins,
        "libraries": library_versions(),
        "leaderboard": {"metric": request.metric, "average": board["average"], "pages": board["pages"], "f1": scores},
        "timeout": settings.timeout,
        "memory_mb": settings.memory_mb,
        "guard": asdict(settings.guard),
        "keep_html_bytes": request.keep_html_bytes,
        **({"composition": {"name": composition.name, "fingerprint": composition.fingerprint,
                            "options": dict(composition.options)}} if composition else {}),
        "executor": request.executor,
    }
