"""Sites' rows in the database: a page's site, found or created by its host (corpus/site_names.py names it)."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..models import Site


def site_named(session: Session, host: str) -> Site:
    """The site with this host, created if new."""
    site = session.scalars(select(Site).where(Site.host == host)).one_or_none()
    if site is None:
        site = Site(host=host)
        session.add(site)
        session.flush()
    return site
