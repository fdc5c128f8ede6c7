"""The roles, lowest first: each may do everything the roles below it may."""

from __future__ import annotations

ANNOTATOR = "annotator"  # annotates the pages they are given
REVIEWER = "reviewer"    # also adjudicates and sees everyone's work
ADMIN = "admin"          # also manages users, site rules, imports, exports and settings

ROLES = (ANNOTATOR, REVIEWER, ADMIN)


def at_least(role: str | None, needed: str) -> bool:
    """Whether `role` may do what `needed` may (None: nobody logged in, may do nothing)."""
    return role in ROLES and ROLES.index(role) >= ROLES.index(needed)
