"""Sites: a page's site is its URL's host (or, on request, the folder it was imported from)."""

from __future__ import annotations

from urllib.parse import urlsplit

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..models import Site


def host_of(url: str | None) -> str | None:
    if not url:
        return None
    try:
        host = urlsplit(url).hostname
    except ValueError:
        return None
    return host.lower() if host else None


def site_named(session: Session, host: str) -> Site:
    """The site with this host, created if new."""
    site = session.scalars(select(Site).where(Site.host == host)).one_or_none()
    if site is None:
        site = Site(host=host)
        session.add(site)
        session.flush()
    return site
