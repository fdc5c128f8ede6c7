"""The sites x extractors table: F1 per site from `leaderboard(by="site")`, the best extractor per site
marked, and sites with too few gold pages to judge marked as such rather than ranked (pure)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

HEAT_STEPS = 10


def heat(f1: float | None) -> int | None:
    """The heatmap step of an F1 (0 for [0, 0.1) ... 9 for [0.9, 1]); None when undefined."""
    return None if f1 is None else min(HEAT_STEPS - 1, int(f1 * HEAT_STEPS))


def site_rows(by_site: Mapping[str, Any], hosts: Iterable[str], min_pages: int) -> list[dict[str, Any]]:
    """One row per host (every host given, with or without gold): its gold pages, whether that is enough
    to judge (at least `min_pages`), each extractor's F1, and the best extractor(s) when judged."""
    groups = by_site.get("groups", {})
    rows = []
    for host in sorted(set(hosts) | set(groups)):
        group = groups.get(host, {"pages": 0, "extractors": {}})
        cells = {name: figures["f1"] for name, figures in group["extractors"].items()}
        judged = group["pages"] >= min_pages
        defined = [f1 for f1 in cells.values() if f1 is not None]
        top = max(defined) if judged and defined else None
        rows.append(
            {
                "site": host,
                "pages": group["pages"],
                "judged": judged,
                "best": sorted(name for name, f1 in cells.items() if top is not None and f1 == top),
                "f1": cells,
                "heat": {name: heat(f1) for name, f1 in cells.items()},
            }
        )
    return rows
