"""--site HOST on every command that takes it: a host that no stored page has is a usage error that names
the stored sites, not a run over no page."""

from __future__ import annotations

from collections.abc import Iterable

import click
from sqlalchemy import select

from ..models import Site
from ..web.db import readers


def check_sites(hosts: Iterable[str | None]) -> None:
    """UsageError naming each asked host that no stored site has, and the sites there are."""
    asked = [host for host in hosts if host]
    if not asked:
        return
    with readers()() as session:
        stored = list(session.scalars(select(Site.host).order_by(Site.host)))
    unknown = [host for host in asked if host.lower() not in stored]
    if unknown:
        there = ", ".join(stored[:20]) + (f" and {len(stored) - 20} more" if len(stored) > 20 else "")
        raise click.UsageError(
            f"no stored page is of the site {', '.join(repr(h) for h in unknown)}; "
            + (f"the sites are: {there}" if stored else "no page is stored yet (goldtext import, or goldtext demo)"))
