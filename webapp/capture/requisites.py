"""The page requisites of a styled snapshot: the stylesheets a captured page (and its rendering) names,
what they import, and the fonts and images they and the page load, fetched like the page (the address
rules, robots.txt, the host's delay) until CAPTURE_STYLE_MAX_BYTES of them are kept. Stylesheets first
(the page is recognisable without its images, not without its layout), then fonts and images in the order
they are named. Only stylesheets, images and fonts are kept; anything else named is left out, with the
reason."""

from __future__ import annotations

import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..corpus.decoding import charset_param
from .css_references import stylesheet_references
from .fetcher import FetchFailed, Hop
from .styled_html import page_references

CSS = "text/css"
KEPT_TYPES = ("text/css", "image/", "font/", "application/font-", "application/x-font-",
              "application/vnd.ms-fontobject", "application/octet-stream")
MAX_LEFT_OUT = 50
"""The requisites left out that the facts name (the count is always whole)."""


def media_type(hop: Hop) -> str:
    return (hop.header("content-type") or "").split(";")[0].strip().lower()


def decoded_body(hop: Hop) -> bytes:
    """The body of a hop without its transfer compression (the capture asks for gzip or deflate only)."""
    coding = (hop.header("content-encoding") or "").strip().lower()
    if coding == "gzip":
        return zlib.decompress(hop.body, 16 + zlib.MAX_WBITS)
    if coding == "deflate":
        try:
            return zlib.decompress(hop.body)
        except zlib.error:
            return zlib.decompress(hop.body, -zlib.MAX_WBITS)
    return hop.body


@dataclass
class Requisites:
    """What one page's styled snapshot kept: the hops fetched (for the WARC) and the facts."""

    hops: list[Hop] = field(default_factory=list)
    kept: list[list[str]] = field(default_factory=list)
    """[URL named, URL it was fetched from (after its redirects)] of each requisite kept."""
    left_out: list[dict[str, str]] = field(default_factory=list)
    left_out_count: int = 0
    size: int = 0

    def leave_out(self, url: str, reason: str) -> None:
        self.left_out_count += 1
        if len(self.left_out) < MAX_LEFT_OUT:
            self.left_out.append({"url": url[:500], "reason": reason})

    def as_fact(self) -> dict[str, Any]:
        return {"kept": self.kept, "bytes": self.size, "left_out": self.left_out,
                "left_out_count": self.left_out_count}


Fetch = Callable[[str], list[Hop]]
"""A requisite's URL to its hops (FetchFailed, or a refusal by robots.txt as FetchFailed, otherwise)."""


def fetch_requisites(documents: Sequence[tuple[str, str]], fetch: Fetch, max_bytes: int) -> Requisites:
    """The requisites of the documents ((HTML, URL): the page, and its rendering), within `max_bytes`."""
    found = Requisites()
    sheets: list[str] = []
    others: list[str] = []
    for html, url in documents:
        page_sheets, page_others = page_references(html, url)
        sheets += page_sheets
        others += page_others
    queue = list(dict.fromkeys(sheets + others))
    seen: set[str] = set()
    while queue:
        url = queue.pop(0)
        if url in seen:
            continue
        seen.add(url)
        if found.size >= max_bytes:
            found.leave_out(url, f"over CAPTURE_STYLE_MAX_BYTES ({max_bytes:,} bytes)")
            continue
        try:
            hops = fetch(url)
        except FetchFailed as failed:
            found.leave_out(url, f"{failed.kind}: {failed.reason}")
            continue
        last = hops[-1]
        kind = media_type(last)
        if not any(kind.startswith(k) for k in KEPT_TYPES):
            found.leave_out(url, f"not a stylesheet, image or font: Content-Type {kind or '(none)'}")
            continue
        if found.size + len(last.body) > max_bytes:
            found.leave_out(url, f"over CAPTURE_STYLE_MAX_BYTES ({max_bytes:,} bytes)")
            continue
        found.hops += hops
        found.kept.append([url, last.url])
        found.size += len(last.body)
        if kind == CSS:
            try:
                css = decoded_body(last).decode(charset_param(last.header("content-type") or "") or "utf-8",
                                                errors="replace")
            except (LookupError, zlib.error):
                continue
            queue = stylesheet_references(css, last.url) + queue
    return found
