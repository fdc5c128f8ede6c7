"""Sites: a page's site is its URL's host (or, on request, the folder it was imported from)."""

from __future__ import annotations

from urllib.parse import urlsplit

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
