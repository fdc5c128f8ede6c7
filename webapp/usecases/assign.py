"""Assign, unassign, re-assign and undo: pages given to annotators (`goldtext assign`, `goldtext assign
--remove`, the lead's console, and an annotator handing back a page assigned to them in the browser).

The rules: an assignee's name is a real annotator's: not empty, no spaces around it, and, once accounts
exist, the name of a user who is not disabled (an assignment to anyone else would hold the page's places
for nobody). Assigning and re-assigning are a lead's (a reviewer or an admin: the lead of the team) and
respect OVERLAP (annotation/assignment.py). Removing an assignment names the annotator only (a mistaken
name can be removed); an annotator may remove their own assignments, a lead anyone's. Re-assigning moves
the selected pages' assignments from one annotator to others (their drafts stay theirs). Each change is
audited and kept with exactly what it changed (models.AssignmentChange), so that a lead can undo their own
newest change: its assignments are removed and the ones it removed come back (those whose page has gold
since, or that are assigned again already, stay as they are)."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..accounts.audit_actions import Action
from ..accounts.roles import ANNOTATOR, REVIEWER, at_least
from ..accounts.users import accounts_exist, user_named
from ..annotation.assignment import Pair, assign, drop_pairs, restore_pairs, unassign
from ..annotation.page_filter import PageFilter
from ..foundation.settings import Settings
from ..models import AssignmentChange, utcnow
from .outcome import Actor, Refused, needs


def spelled(name: str) -> str:
    """The name if it is one (not empty, no spaces or control characters around it); Refused (400) otherwise."""
    if not name.strip():
        raise Refused(400, "An annotator's name is empty: name the user the pages go to.")
    if name != name.strip() or any(ord(ch) < 32 or ord(ch) == 127 for ch in name):
        raise Refused(400, f"The annotator's name {name!r} has spaces or control characters in it: give the user's "
                           "name exactly.")
    return name


def checked_annotators(session: Session, names: tuple[str, ...]) -> tuple[str, ...]:
    """The names if each is an annotator who may be given pages; Refused (400) naming the first that is not."""
    if not names:
        raise Refused(400, "Name at least one annotator.")
    with_accounts = accounts_exist(session)
    for name in names:
        spelled(name)
        if not with_accounts:
            continue
        user = user_named(session, name)
        if user is None:
            raise Refused(400, f"No user is named {name!r}: assign pages to an existing user "
                               "(goldtext users list).")
        if user.disabled:
            raise Refused(400, f"User {name!r} is disabled: their assignments would hold places nobody fills.")
    return names


@needs(REVIEWER, "Only a lead (a reviewer or an admin) may assign pages.")
def assign_pages(session: Session, settings: Settings, actor: Actor, names: tuple[str, ...], selection: PageFilter,
                 limit: int | None = None, page_ids: Sequence[int] = ()) -> int:
    """Assign the selected pages (of ``page_ids`` only, when given) with a free place to each annotator in
    turn (annotation/assignment.py); returns the assignments made. Never commits."""
    made = assign(session, checked_annotators(session, names), selection, settings.overlap, limit, page_ids)
    kept(session, actor, "assign", made, [])
    actor.record(session, Action.ASSIGN, ", ".join(names),
                 {"pages": len(made), **selection_detail(selection, page_ids)})
    return len(made)


@needs(ANNOTATOR, "Only a signed-in user hands pages back.")
def unassign_pages(session: Session, actor: Actor, names: tuple[str, ...], selection: PageFilter,
                   page_id: int | None = None, page_ids: Sequence[int] = ()) -> int:
    """Remove the annotators' assignments of the selected pages (of that page only, or of ``page_ids``,
    when given); returns how many. Refused (400) for an empty name, (403) for someone else's assignment
    unless the actor is a lead. Never commits."""
    if not names:
        raise Refused(400, "Name at least one annotator.")
    for name in names:
        if not name.strip():
            raise Refused(400, "An annotator's name is empty: name the user whose assignments go.")
        if name != actor.name and not at_least(actor.role, REVIEWER):
            raise Refused(403, f"Only a lead (a reviewer or an admin) removes {name!r}'s assignments: you may hand "
                               "back your own.")
    removed = unassign(session, names, selection, page_id, page_ids)
    kept(session, actor, "unassign", [], removed)
    actor.record(session, Action.UNASSIGN, ", ".join(names),
                 {"pages": len(removed), "page": page_id, **selection_detail(selection, page_ids)})
    return len(removed)


@needs(REVIEWER, "Only a lead (a reviewer or an admin) may re-assign pages.")
def reassign_pages(session: Session, settings: Settings, actor: Actor, source: str, names: tuple[str, ...],
                   selection: PageFilter, page_ids: Sequence[int] = ()) -> tuple[int, int]:
    """Move ``source``'s assignments of the selected pages to the annotators ``names`` (each page to the
    first of them with a place for it, in turn); returns (assignments removed, assignments made). Pages
    that none of them can take stay unassigned. Never commits."""
    spelled(source)
    targets = checked_annotators(session, names)
    if source in targets:
        raise Refused(400, f"Re-assigning moves pages away from {source!r}: name other annotators to take them.")
    removed = unassign(session, (source,), selection, None, page_ids)
    pages = tuple(page for page, _ in removed)
    made: list[Pair] = []
    for index, page in enumerate(pages):
        order = targets[index % len(targets):] + targets[:index % len(targets)]
        for name in order:
            taken = assign(session, (name,), PageFilter(), settings.overlap, 1, (page,))
            if taken:
                made += taken
                break
    kept(session, actor, "reassign", made, removed)
    actor.record(session, Action.REASSIGN, f"{source} -> {', '.join(targets)}",
                 {"removed": len(removed), "made": len(made), **selection_detail(selection, page_ids)})
    return len(removed), len(made)


@needs(REVIEWER, "Only a lead (a reviewer or an admin) may undo assignments.")
def undo_assignment(session: Session, actor: Actor) -> tuple[int, int]:
    """Undo the actor's newest assignment change not yet undone (see the rules); returns (assignments
    removed, assignments restored). Refused (409) when there is none. Never commits."""
    change = last_change(session, actor.name)
    if change is None:
        raise Refused(409, f"{actor.name} has no assignment change left to undo.")
    removed = drop_pairs(session, [(int(page), str(name)) for page, name in change.added])
    restored = restore_pairs(session, [(int(page), str(name)) for page, name in change.removed])
    change.undone_at = utcnow()
    session.flush()
    actor.record(session, Action.ASSIGN_UNDO, f"assignment change {change.id}",
                 {"action": change.action, "removed": len(removed), "restored": len(restored)})
    return len(removed), len(restored)


def last_change(session: Session, actor_name: str) -> AssignmentChange | None:
    """The actor's newest assignment change not yet undone (what Undo would undo)."""
    return session.scalars(select(AssignmentChange).where(AssignmentChange.actor == actor_name,
                                                          AssignmentChange.undone_at.is_(None))
                           .order_by(AssignmentChange.id.desc()).limit(1)).first()


def kept(session: Session, actor: Actor, action: str, added: list[Pair], removed: list[Pair]) -> None:
    """Keep what an assignment action changed, to undo it (nothing when it changed nothing)."""
    if added or removed:
        session.add(AssignmentChange(actor=actor.name, action=action, added=[list(p) for p in added],
                                     removed=[list(p) for p in removed]))
        session.flush()


def selection_detail(selection: PageFilter, page_ids: Sequence[int] = ()) -> dict[str, object]:
    """What the audit log records of a selection."""
    return {"sites": list(selection.sites), "batches": list(selection.batches), "url_contains": selection.url_contains,
            "page_types": list(selection.page_types), "statuses": list(selection.statuses),
            "page_ids": list(page_ids)}
