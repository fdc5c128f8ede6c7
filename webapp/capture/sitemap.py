"""The page URLs of a sitemap (sitemaps.org: a `urlset`, or a `sitemapindex` of further sitemaps, either
gzipped or not), fetched through a capture's guarded fetcher, robots.txt obeyed as for a page, up to a
limit."""

from __future__ import annotations

import zlib

from lxml import etree

from .capture_run import CaptureRun
from .fetcher import FetchFailed

MAX_SITEMAPS = 50
MAX_SITEMAP_BYTES = 50 * 2**20  # sitemaps.org's limit on one sitemap, uncompressed


def _body(run: CaptureRun, url: str) -> bytes:
    if run.obey_robots:
        decision = run.book.decide(url)
        if not decision.allowed:
            raise FetchFailed("refused by robots", f"{url}: {decision.reason}")
    run.polite.wait_for(url, run.obey_robots)
    hop = run.fetcher.fetch(url, html_only=False)[-1]
    body = hop.body
    if (hop.header("content-encoding") or "").lower() == "deflate":
        body = _inflated(body, zlib.MAX_WBITS)
    while body[:2] == b"\x1f\x8b":  # sent gzipped, or a .xml.gz file (or both)
        body = _inflated(body, 16 + zlib.MAX_WBITS)
    return body


def _inflated(data: bytes, wbits: int) -> bytes:
    """Decompressed, never past MAX_SITEMAP_BYTES (a small file may unpack to gigabytes)."""
    inflater = zlib.decompressobj(wbits)
    out = inflater.decompress(data, MAX_SITEMAP_BYTES)
    if inflater.unconsumed_tail:
        raise ValueError(f"the sitemap unpacks to more than {MAX_SITEMAP_BYTES:,} bytes")
    return out


def sitemap_urls(run: CaptureRun, url: str, limit: int) -> list[str]:
    """Up to `limit` page URLs of the sitemap at `url`, in its order; FetchFailed or ValueError (naming the
    sitemap) when it cannot be read."""
    found: list[str] = []
    queue, seen = [url], set[str]()
    while queue and len(found) < limit and len(seen) < MAX_SITEMAPS:
        current = queue.pop(0)
        if current in seen:
            continue
        seen.add(current)
        try:
            root = etree.fromstring(_body(run, current), parser=etree.XMLParser(resolve_entities=False,
                                                                               no_network=True, huge_tree=False))
        except (etree.XMLSyntaxError, zlib.error) as error:
            raise ValueError(f"the sitemap {current} is not readable XML ({error})") from None
        locs = [(loc.text or "").strip() for loc in root.iter("{*}loc")]
        if etree.QName(root).localname == "sitemapindex":
            queue.extend(loc for loc in locs if loc)
        else:
            found.extend(loc for loc in locs if loc)
    return list(dict.fromkeys(found))[:limit]
