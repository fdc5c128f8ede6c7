"""The roles, lowest first: each may do everything the roles below it may."""

from __future__ import annotations

ANNOTATOR = "annotator"  # annotates the pages they are given
REVIEWER = "reviewer"    # also adjudicates and sees everyone's work
ADMIN = "admin"          # also manages users, site rules, imports, exports and settings

ROLES = (ANNOTATOR, REVIEWER, ADMIN)

SYSTEM = "system"
"""The role of the system actor (usecases/outcome.py `Actor.system`: what Goldtext starts of itself, the checks
after a save). It is no account's role and none of ROLES, so `at_least` never grants it anything: only a use case
that says a system may call it (`needs(..., system=True)`) accepts it."""


def at_least(role: str | None, needed: str) -> bool:
    """Whether `role` may do what `needed` may (None: nobody logged in, may do nothing)."""
    return role in ROLES and ROLES.index(role) >= ROLES.index(needed)
