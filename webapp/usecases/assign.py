"""Assign and unassign: pages given to annotators (`goldtext assign`, `goldtext assign --remove`, and an
annotator handing back a page assigned to them in the browser).

The rules: an assignee's name is a real annotator's: not empty, no spaces around it, and, once accounts
exist, the name of a user who is not disabled (an assignment to anyone else would hold the page's places
for nobody). Removing an assignment names the annotator only (a mistaken name can be removed); an annotator
may remove their own assignments, an admin anyone's. Each change is audited."""

from __future__ import annotations

from sqlalchemy.orm import Session

from ..accounts.roles import ADMIN, at_least
from ..accounts.users import accounts_exist, user_named
from ..annotation.assignment import assign, unassign
from ..annotation.page_filter import PageFilter
from ..settings import Settings
from .outcome import Actor, Refused


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


def assign_pages(session: Session, settings: Settings, actor: Actor, names: tuple[str, ...], selection: PageFilter,
                 limit: int | None = None) -> int:
    """Assign the selected pages with a free place to each annotator in turn (annotation/assignment.py);
    returns the assignments made. Never commits."""
    made = assign(session, checked_annotators(session, names), selection, settings.overlap, limit)
    actor.record(session, "assign", ", ".join(names), {"pages": made, **selection_detail(selection)})
    return made


def unassign_pages(session: Session, actor: Actor, names: tuple[str, ...], selection: PageFilter,
                   page_id: int | None = None) -> int:
    """Remove the annotators' assignments of the selected pages (of that page only, when given); returns
    how many. Refused (400) for an empty name, (403) for someone else's assignment unless the actor is an
    admin. Never commits."""
    if not names:
        raise Refused(400, "Name at least one annotator.")
    for name in names:
        if not name.strip():
            raise Refused(400, "An annotator's name is empty: name the user whose assignments go.")
        if name != actor.name and not at_least(actor.role, ADMIN):
            raise Refused(403, f"Only an admin removes {name!r}'s assignments: you may hand back your own.")
    removed = unassign(session, names, selection, page_id)
    actor.record(session, "unassign", ", ".join(names),
                 {"pages": removed, "page": page_id, **selection_detail(selection)})
    return removed


def selection_detail(selection: PageFilter) -> dict[str, object]:
    """What the audit log records of a selection."""
    return {"sites": list(selection.sites), "batches": list(selection.batches), "url_contains": selection.url_contains}
