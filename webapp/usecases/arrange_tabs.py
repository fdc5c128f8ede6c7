"""Arrange the candidate tabs for the team (the lead's console; annotation/candidate_tabs.py).

The rules: a lead's (a reviewer or an admin; 403). Each choice names an extractor (not empty, at most 100
characters, each once; 400), whether its tab is hidden and whether it is pinned (a hidden tab cannot be
pinned; 400), and its position among the pinned tabs (a whole number from 0 to 999; 400). The choices
replace the team's earlier ones; an extractor left out is shown unpinned, in the view's own order.
Audited; nothing commits."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import delete
from sqlalchemy.orm import Session

from ..accounts.audit_actions import Action
from ..accounts.roles import REVIEWER
from ..models import CandidateTab
from .outcome import Actor, Refused, needs

NAME_MAX = 100
POSITION_MAX = 999


@dataclass(frozen=True)
class TabChoice:
    extractor: str
    hidden: bool = False
    pinned: bool = False
    position: int = 0


@needs(REVIEWER, "Only a lead (a reviewer or an admin) may arrange the candidate tabs.")
def arrange_tabs(session: Session, actor: Actor, choices: Sequence[TabChoice]) -> int:
    """Store the team's tab choices (see the rules); returns how many tabs are hidden or pinned."""
    names = [c.extractor for c in choices]
    for choice in choices:
        if not choice.extractor.strip() or len(choice.extractor) > NAME_MAX:
            raise Refused(400, f"An extractor's name must have 1 to {NAME_MAX} characters, not {choice.extractor!r}.")
        if names.count(choice.extractor) > 1:
            raise Refused(400, f"Extractor {choice.extractor!r} is named twice: give one choice per tab.")
        if choice.hidden and choice.pinned:
            raise Refused(400, f"Tab {choice.extractor!r} is both hidden and pinned: choose one.")
        if not 0 <= choice.position <= POSITION_MAX:
            raise Refused(400, f"Tab {choice.extractor!r}'s position must be from 0 to {POSITION_MAX}.")
    kept = [c for c in choices if c.hidden or c.pinned]
    session.execute(delete(CandidateTab))
    session.add_all(CandidateTab(extractor=c.extractor, hidden=c.hidden, pinned=c.pinned, position=c.position)
                    for c in kept)
    session.flush()
    actor.record(session, Action.TABS_ARRANGE, "candidate tabs",
                 {"hidden": [c.extractor for c in kept if c.hidden],
                  "pinned": [c.extractor for c in kept if c.pinned]})
    return len(kept)
