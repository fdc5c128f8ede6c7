"""The helpers every template may use: `pct` and `ranked` (filters) and `carry` (a global), registered
on the app by create_app."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from flask import Flask
from werkzeug.datastructures import MultiDict

CARRIED = ("metric", "average", "site", "type", "batch", "author", "extractor", "bootstrap", "seed", "unanchored")
"""The figures' query arguments that links carry along."""


def pct(value: float | None) -> str:
    """A share as a percentage with one decimal, a dash when undefined."""
    return "–" if value is None else f"{100 * value:.1f}%"


def ranked(extractors: dict[str, dict[str, Any]], twins: Collection[str] = ()) -> list[tuple[str, dict[str, Any]]]:
    """(name, figures) by F1, best first; undefined F1 last; a twin (an extractor that is only another one
    there, results/leaderboard_figures.py SameAs) after the others of its F1."""
    return sorted(extractors.items(),
                  key=lambda item: (item[1]["f1"] is None, -(item[1]["f1"] or 0), item[0] in twins, item[0]))


def carry(args: MultiDict, *dropped: str) -> dict[str, list[str]]:
    """The figures' query arguments present in `args` (minus `dropped`), to carry along in links."""
    return {name: args.getlist(name) for name in CARRIED if name not in dropped and args.get(name)}


def init_template_helpers(app: Flask) -> None:
    app.add_template_filter(pct, "pct")
    app.add_template_filter(ranked, "ranked")
    app.add_template_global(carry, "carry")
