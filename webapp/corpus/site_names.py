"""Sites: a page's site is its URL's host (or, on request, the folder it was imported from)."""

from __future__ import annotations

from urllib.parse import urlsplit

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..models import Site

UNKNOWN_SITE = "unknown"
"""The site of the pages imported with neither a URL nor a folder to name theirs."""


def host_of(url: str | None) -> str | None:
    if not url:
        return None
    try:
        host = urlsplit(url).hostname
    except ValueError:
        return None
    return host.lower() if host else None


def known_site(host: str) -> str | None:
    """The host, or None for UNKNOWN_SITE: its pages share no site, only the lack of one, so nothing is
    learnt from them as a site (its best extractor, its repeated boilerplate)."""
    return None if host == UNKNOWN_SITE else host


def site_named(session: Session, host: str) -> Site:
    """The site with this host, created if new."""
    site = session.scalars(select(Site).where(Site.host == host)).one_or_none()
    if site is None:
        site = Site(host=host)
        session.add(site)
        session.flush()
    return site
