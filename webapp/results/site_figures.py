"""The sites x extractors and page types x extractors tables: F1 per site from `leaderboard(by="site")`
and per page type from `leaderboard(by="type")`, the best extractor of each row marked, and rows with too
few gold pages to judge (or, for the unknown site, no site to judge) marked as such rather than ranked
(pure)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ..corpus.site_names import known_site

HEAT_STEPS = 10


def heat(f1: float | None) -> int | None:
    """The heatmap step of an F1 (0 for [0, 0.1) ... 9 for [0.9, 1]); None when undefined."""
    return None if f1 is None else min(HEAT_STEPS - 1, int(f1 * HEAT_STEPS))


def enough_pages(pages: int, min_pages: int) -> bool:
    """The one "too few to judge" rule of every view, the API and the command line: figures over fewer than
    LEADERBOARD_MIN_SITE_PAGES pages are shown with a warning, never ranked or starred."""
    return pages >= min_pages


def mark_too_few(board: dict[str, Any], min_pages: int) -> None:
    """Say on a leaderboard result, and on each of its groups, whether its pages are too few to judge."""
    board["min_pages"] = min_pages
    for part in (board, *board.get("groups", {}).values()):
        part["too_few"] = not enough_pages(part["pages"], min_pages)


def _cells(group: Mapping[str, Any] | None, min_pages: int, judgeable: bool = True) -> dict[str, Any]:
    """One row's figures from its group of a grouped leaderboard (None: no gold page): its gold pages,
    whether they are enough to judge (at least `min_pages`, of a row that can be judged at all), each
    extractor's F1 and heat step, and the best extractor (★) when judged and the bootstrap separates it from
    every other (its tiers, scoring/tiers.py)."""
    group = group or {"pages": 0, "extractors": {}}
    cells = {name: figures["f1"] for name, figures in group["extractors"].items()}
    judged = judgeable and enough_pages(group["pages"], min_pages)
    tiers = group.get("tiers")
    return {
        "pages": group["pages"],
        "judged": judged,
        "best": [tiers["best"]] if judged and tiers and tiers["separable"] else [],
        "f1": cells,
        "heat": {name: heat(f1) for name, f1 in cells.items()},
    }


def site_rows(by_site: Mapping[str, Any], hosts: Iterable[str], min_pages: int) -> list[dict[str, Any]]:
    """One row per host (every host given, with or without gold), by host name. The row of the unknown
    site (pages imported without a URL) is never judged: its pages share no site, so it has no best."""
    groups = by_site.get("groups", {})
    return [{"site": host, "unknown": known_site(host) is None,
             **_cells(groups.get(host), min_pages, known_site(host) is not None)}
            for host in sorted(set(hosts) | set(groups))]


def type_rows(by_type: Mapping[str, Any], labels: Mapping[str, str], min_pages: int) -> list[dict[str, Any]]:
    """One row per page type of `labels` (type -> label, in their order, with or without gold), then any
    other type the gold has (one the settings no longer name), labelled with its name."""
    groups = by_type.get("groups", {})
    page_types = [*labels, *sorted(set(groups) - set(labels))]
    return [{"type": page_type, "label": labels.get(page_type, page_type), **_cells(groups.get(page_type), min_pages)}
            for page_type in page_types]
