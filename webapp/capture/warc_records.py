"""What a capture fetched, as WARC records (warcio): each exchange as a `request` and its `response`
(the body as the server sent it; an HTTP/2 answer is written as HTTP/1.1 with `WARC-Protocol: h2`), the
robots.txt fetched as any other exchange, and per captured URL a `metadata` record (JSON, concurrent to
the final response) with what the page's facts record: the redirects, the robots.txt decision, the time.
A rendered page adds, concurrent to its response, its DOM as a `resource` record
(`urn:goldtext:rendered-dom:` and the URL) and its full-page screenshot (`urn:goldtext:screenshot:` and the
URL); its styled snapshot's stylesheets, fonts and images follow as exchanges, named in its fetch facts.
A WARC starts with a `warcinfo` record naming Goldtext and the capture's settings.

Each URL's records are written as gzip members of their own, so that the WARC of a capture is the
concatenation of its URLs' parts in any order they were fetched."""

from __future__ import annotations

import io
import json
from collections.abc import Iterable
from importlib.metadata import version
from typing import Any, BinaryIO
from urllib.parse import urlsplit

from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

from ..corpus.warc_reader import FETCH_RECORD, RENDERED_TYPE, RENDERED_URI, SCREENSHOT_TYPE, SCREENSHOT_URI
from .fetcher import Hop
from .render import Rendering

DROPPED_HEADERS = frozenset({"transfer-encoding"})
"""Headers that describe the transfer, not the body kept (the body is written whole, not chunked)."""


def warcinfo(stream: BinaryIO, filename: str, settings: dict[str, Any]) -> None:
    writer = WARCWriter(stream, gzip=True)
    info = {"software": f"Goldtext {version('goldtext')}", "format": "WARC File Format 1.1",
            "description": "pages captured by goldtext capture",
            "goldtext-settings": json.dumps(settings, sort_keys=True)}
    writer.write_record(writer.create_warcinfo_record(filename, info))


def exchange(writer: WARCWriter, hop: Hop) -> str:
    """A hop's request and response records; returns the response's record id."""
    headers = [(k, v) for k, v in hop.headers if k.lower() not in DROPPED_HEADERS]
    warc_headers = {"WARC-Date": hop.fetched_at.strftime("%Y-%m-%dT%H:%M:%SZ")}
    if hop.http_version.upper().startswith("HTTP/2"):
        warc_headers["WARC-Protocol"] = "h2"
    response = writer.create_warc_record(
        hop.url, "response", payload=io.BytesIO(hop.body), length=len(hop.body),
        http_headers=StatusAndHeaders(f"{hop.status} {hop.reason}".strip(), headers, protocol="HTTP/1.1"),
        warc_headers_dict=warc_headers)
    parts = urlsplit(hop.url)
    target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    request = writer.create_warc_record(
        hop.url, "request",
        http_headers=StatusAndHeaders(f"GET {target} HTTP/1.1", list(hop.request_headers), is_http_request=True),
        warc_headers_dict={**warc_headers, "WARC-Concurrent-To": response.rec_headers.get_header("WARC-Record-ID")})
    writer.write_record(response)
    writer.write_record(request)
    return str(response.rec_headers.get_header("WARC-Record-ID"))


def resource(writer: WARCWriter, uri: str, content_type: str, body: bytes, response_id: str) -> None:
    """A `resource` record of something made of the response `response_id` (its rendering, its screenshot)."""
    writer.write_record(writer.create_warc_record(
        uri, "resource", payload=io.BytesIO(body), length=len(body), warc_content_type=content_type,
        warc_headers_dict={"WARC-Concurrent-To": response_id}))


def capture_part(hops: Iterable[Hop], facts: dict[str, Any] | None, rendering: Rendering | None = None,
                 requisites: Iterable[Hop] = ()) -> bytes:
    """One URL's records as gzipped WARC bytes: its exchanges, then, if it gave a page, its fetch facts, its
    rendering and screenshot, and the exchanges of its styled snapshot's requisites."""
    stream = io.BytesIO()
    writer = WARCWriter(stream, gzip=True)
    last_id = None
    last: Hop | None = None
    for hop in hops:
        last_id, last = exchange(writer, hop), hop
    if facts is not None and last is not None and last_id is not None:
        body = json.dumps(facts, sort_keys=True).encode()
        writer.write_record(writer.create_warc_record(
            last.url, "metadata", payload=io.BytesIO(body), length=len(body), warc_content_type=FETCH_RECORD,
            warc_headers_dict={"WARC-Concurrent-To": last_id}))
        if rendering is not None:
            resource(writer, RENDERED_URI + last.url, RENDERED_TYPE, rendering.html.encode(), last_id)
            if rendering.screenshot:
                resource(writer, SCREENSHOT_URI + last.url, SCREENSHOT_TYPE, rendering.screenshot, last_id)
        for hop in requisites:
            exchange(writer, hop)
    return stream.getvalue()
