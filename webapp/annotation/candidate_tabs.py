"""The team's candidate tabs: which extractors' tabs the annotate view hides, which it pins first and in
which order (models.CandidateTab, set by a lead on the console, usecases/arrange_tabs.py). One choice
for the whole installation: its users are one team.

Pinned tabs come first, by their position, then the others in the view's own order (the default
extractor first, then by name); hidden tabs are left out of the view. Hiding a tab changes nothing else:
the prefill is still chosen among every extractor (annotation/prefill.py), and the leaderboard ranks them
all."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypeVar

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..models import CandidateTab

T = TypeVar("T", bound=Mapping[str, Any])


def tab_choices(session: Session) -> dict[str, CandidateTab]:
    """The team's choice for each extractor named, by name."""
    return {tab.extractor: tab for tab in session.scalars(select(CandidateTab))}


def arranged(candidates: Sequence[T], choices: Mapping[str, CandidateTab]) -> list[T]:
    """The candidates (each with its "name") to show as tabs, in order: hidden ones left out, pinned
    ones first by position, the others in their given order."""
    shown = [c for c in candidates if not (choices.get(c["name"]) and choices[c["name"]].hidden)]
    pinned = sorted((c for c in shown if choices.get(c["name"]) and choices[c["name"]].pinned),
                    key=lambda c: (choices[c["name"]].position, c["name"]))
    return pinned + [c for c in shown if c not in pinned]
