"""Make a page a control page, give it to annotators, end it (the lead's console; see annotation/control.py).

The rules: each is a lead's (a reviewer or an admin; 403). A control page is a page with finished gold (done
or skipped; 409 otherwise), once (409); its known gold is kept as it is then. It is given to annotators who
may be given pages (usecases/assign.py `checked_annotators`), neither the gold's author nor an annotator of
the page already (409: they have seen it); giving it is an assignment change the lead may undo. Ending it
removes its assignments and the known gold it kept; the annotations made of it stay. Each is audited;
nothing commits.
"""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..accounts.audit_actions import Action
from ..accounts.roles import REVIEWER
from ..annotation.annotations import FINISHED, annotation_of
from ..annotation.assignment import Pair, drop_pairs
from ..annotation.control import control_of
from ..models import Assignment, ControlPage
from .assign import checked_annotators, kept
from .outcome import Actor, Refused, needs
from .save import locked_page


@needs(REVIEWER, "Only a lead (a reviewer or an admin) may make control pages.")
def make_control(session: Session, actor: Actor, page_id: int) -> ControlPage:
    """Keep the page's gold as a control page's known gold (see the rules). Never commits."""
    page = locked_page(session, page_id)
    gold = page.gold
    if gold is None or gold.status not in FINISHED:
        raise Refused(409, f"Page {page.id} has no finished gold: a control page's gold must be known.")
    if control_of(session, page.id) is not None:
        raise Refused(409, f"Page {page.id} is a control page already.")
    control = ControlPage(page_id=page.id, text=gold.text, page_type=gold.page_type, snippets=gold.snippets,
                          gold_version=gold.version, author=actor.name)
    session.add(control)
    session.flush()
    actor.record(session, Action.CONTROL_MAKE, f"page {page.id}", {"gold_version": gold.version})
    return control


@needs(REVIEWER, "Only a lead (a reviewer or an admin) may give control pages.")
def give_control(session: Session, actor: Actor, page_id: int, names: tuple[str, ...]) -> int:
    """Assign the control page to these annotators (see the rules); returns how many. Never commits."""
    page = locked_page(session, page_id)
    if control_of(session, page.id) is None:
        raise Refused(404, f"Page {page.id} is not a control page: make it one first.")
    made: list[Pair] = []
    for name in checked_annotators(session, names):
        if page.gold is not None and page.gold.author == name or annotation_of(session, page.id, name) is not None:
            raise Refused(409, f"{name} has seen page {page.id} (they annotated it): it cannot control them.")
        if session.scalar(select(Assignment.id).where(Assignment.page_id == page.id, Assignment.author == name)):
            continue
        session.add(Assignment(page_id=page.id, author=name))
        made.append((page.id, name))
    session.flush()
    kept(session, actor, "control", made, [])
    actor.record(session, Action.CONTROL_GIVE, f"page {page.id}", {"annotators": list(names), "made": len(made)})
    return len(made)


@needs(REVIEWER, "Only a lead (a reviewer or an admin) may end control pages.")
def end_control(session: Session, actor: Actor, page_id: int) -> None:
    """The page is no longer a control page (see the rules). Never commits."""
    page = locked_page(session, page_id)
    control = control_of(session, page.id)
    if control is None:
        raise Refused(404, f"Page {page.id} is not a control page.")
    pairs = [(page.id, name) for name in
             session.scalars(select(Assignment.author).where(Assignment.page_id == page.id))]
    removed = drop_pairs(session, pairs)
    session.delete(control)
    session.flush()
    actor.record(session, Action.CONTROL_END, f"page {page.id}", {"assignments_removed": len(removed)})
