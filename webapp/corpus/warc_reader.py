"""Reader for WARC and ARC files (gzipped or not): the HTML responses, streamed record by record.

Only `response` records whose HTTP Content-Type is HTML are items; other records are skipped
silently, and so are redirects (a 3xx answer is a step to a page, not a page). Each payload is read once,
dechunked and decompressed, and never past the size cap. Other non-200 responses and truncated records
are rejected. A `metadata` record of a capture (FETCH_RECORD, concurrent to the response just read)
gives that page its fetch facts; its `resource` records concurrent to the response give its rendering in
Chromium and its screenshot, and the responses its fetch facts name as its styled snapshot's requisites are
kept with it. A file cut short or corrupt ends with a rejection of the record it cuts,
so a lost record never passes unseen; its reason names the file and says in words what is wrong
(`in_words`), never warcio's internal error alone.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Callable, Iterator
from dataclasses import replace
from itertools import count
from pathlib import Path
from typing import Any, TypeVar

from warcio.archiveiterator import ArchiveIterator
from warcio.exceptions import ArchiveLoadFailed
from warcio.recordloader import ArcWarcRecord

from .decoding import charset_param
from .document import Limits, RawDocument, Rejected, Requisite
from .streams import Unreadable, read_capped

HTML_TYPES = ("text/html", "application/xhtml+xml")
REDIRECTS = ("301", "302", "303", "307", "308")
FETCH_RECORD = "application/vnd.goldtext.fetch+json"
"""The content type of the metadata record in which a capture (webapp/capture) writes a page's fetch facts."""
FETCH_MAX_BYTES = 1024 * 1024
RENDERED_URI = "urn:goldtext:rendered-dom:"
RENDERED_TYPE = "text/html; charset=utf-8"
SCREENSHOT_URI = "urn:goldtext:screenshot:"
SCREENSHOT_TYPE = "image/png"
"""The `resource` records of a capture's rendering (the DOM, the screenshot), concurrent to the response."""
TAIL = 64  # bytes looked at past the last whole record: anything but blank lines is a cut record

T = TypeVar("T")


def read_warc(source: str, limits: Limits) -> Iterator[RawDocument | Rejected]:
    """The HTML responses in the WARC (or ARC) file at source."""
    position = "warc record 1"
    try:
        with open(source, "rb") as stream:
            records = ArchiveIterator(stream, arc2warc=True)
            iterator = iter(records)
            pending: _Pending | None = None  # a response, while what a capture kept of it may follow
            for number in count(1):
                position = f"warc record {number}"
                record = _warcio(lambda: next(iterator, None))
                if record is None:
                    break
                if pending is not None and pending.takes(record, records, limits):
                    continue
                if pending is not None and record.rec_type != "request":  # a request may come between
                    yield pending.document
                    pending = None
                outcome = _outcome(record, records, _item(position, record), source, limits)
                if isinstance(outcome, RawDocument):
                    pending = _Pending(str(record.rec_headers.get_header("WARC-Record-ID")), outcome)
                elif outcome is not None:
                    yield outcome
            if pending is not None:
                yield pending.document
            stream.seek(records.offset)
            if stream.read(TAIL).strip():
                raise Unreadable("the file ends inside this record (truncated or corrupt WARC)")
    except (Unreadable, OSError) as err:
        yield Rejected(position, source, f"{Path(source).name}: {err}")


def in_words(err: Exception) -> str:
    """What a warcio error on broken input means, for the person who sent the file."""
    if isinstance(err, ArchiveLoadFailed) and "Unknown archive format" in str(err):
        return "it is not a WARC or ARC file here: the record does not begin with a WARC/1.0 or ARC header line"
    if isinstance(err, (EOFError, zlib.error)) or "compressed" in str(err).lower():
        return "the file is cut short, or its gzip compression is corrupt"
    if isinstance(err, ArchiveLoadFailed):
        return f"a record cannot be read ({err})"
    return ("a record's headers are malformed: a header it needs (WARC-Type, WARC-Target-URI of a response, "
            "its HTTP status line) is missing or invalid")


def _warcio(call: Callable[[], T], failure: str = "unreadable from here on") -> T:
    """call's result; any error warcio raises on corrupt input as Unreadable(failure: what it means)."""
    try:
        return call()
    except Unreadable:
        raise
    except Exception as err:  # warcio has no error hierarchy: broken input raises anything at all
        raise Unreadable(f"{failure}: {in_words(err)}") from err


def _outcome(
    record: ArcWarcRecord, records: ArchiveIterator, item: str, source: str, limits: Limits
) -> RawDocument | Rejected | None:
    """The record's document or rejection; None for a whole record that is not an HTML response."""
    outcome = _malformed(record, item, source) or _document(record, item, source, limits)
    if outcome is None:  # skipped, but the file must not end inside it
        _warcio(records.read_to_end)
        cut = _cut(record)
        outcome = Rejected(item, source, f"truncated record ({cut})") if cut else None
    return outcome


def _item(position: str, record: ArcWarcRecord) -> str:
    url = record.rec_headers.get_header("WARC-Target-URI")
    return f"{position} {url}" if url else position


def _document(
    record: ArcWarcRecord, item: str, source: str, limits: Limits
) -> RawDocument | Rejected | None:
    """The record as a document or a rejection, or None when it is not an HTML response."""
    headers = record.http_headers
    if record.rec_type != "response" or headers is None:
        return None
    content_type = headers.get_header("Content-Type") or ""
    if content_type.split(";")[0].strip().lower() not in HTML_TYPES:
        return None
    if headers.get_statuscode() in REDIRECTS:
        return None
    if headers.get_statuscode() != "200":
        return Rejected(item, source, f"HTTP {headers.get_statuscode()}")
    if truncated := record.rec_headers.get_header("WARC-Truncated"):
        return Rejected(item, source, f"truncated record (WARC-Truncated: {truncated})")
    try:
        data = _warcio(
            lambda: read_capped(record.content_stream(), limits.max_bytes), "corrupt record"
        )
    except Unreadable as err:
        return Rejected(item, source, str(err))
    if shortfall := _cut(record) or _http_shortfall(record):
        return Rejected(item, source, f"truncated record ({shortfall})")
    url = record.rec_headers.get_header("WARC-Target-URI")
    return RawDocument(item, data, source, url=url, charset=charset_param(content_type))


class _Pending:
    """A page's response, and what a capture wrote of it after it: its fetch facts (a `metadata` record
    concurrent to it), its rendering and screenshot (`resource` records concurrent to it), and the responses
    of its styled snapshot's requisites (the URLs its fetch facts name)."""

    def __init__(self, response_id: str, document: RawDocument) -> None:
        self.response_id = response_id
        self.document = document
        self.named: dict[str, list[str]] = {}  # a requisite's final URL -> the URLs it is named by

    def takes(self, record: ArcWarcRecord, records: ArchiveIterator, limits: Limits) -> bool:
        headers = record.rec_headers
        uri = headers.get_header("WARC-Target-URI") or ""
        if headers.get_header("WARC-Concurrent-To") == self.response_id:
            if record.rec_type == "metadata" and headers.get_header("Content-Type") == FETCH_RECORD:
                facts = _fetch_facts(record, records)
                self.document = replace(self.document, fetch=facts)
                for pair in ((facts or {}).get("styles") or {}).get("kept") or []:
                    if isinstance(pair, list) and len(pair) == 2:
                        self.named.setdefault(str(pair[1]), []).append(str(pair[0]))
                return True
            if record.rec_type == "resource" and uri.startswith(RENDERED_URI):
                data = _capped_payload(record, records, limits)
                self.document = replace(self.document, rendered=data.decode("utf-8", errors="replace"))
                return True
            if record.rec_type == "resource" and uri.startswith(SCREENSHOT_URI):
                self.document = replace(self.document, screenshot=_capped_payload(record, records, limits))
                return True
        if record.rec_type == "response" and uri in self.named and record.http_headers is not None \
                and record.http_headers.get_statuscode() == "200":
            kind = record.http_headers.get_header("Content-Type") or ""
            data = _capped_payload(record, records, limits)
            kept = tuple(Requisite(url, kind, data) for url in self.named.pop(uri))
            self.document = replace(self.document, requisites=self.document.requisites + kept)
            return True
        return False


def _capped_payload(record: ArcWarcRecord, records: ArchiveIterator, limits: Limits) -> bytes:
    """The record's payload (decompressed), at most the import's size cap; the rest read past."""
    data = _warcio(lambda: record.content_stream().read(limits.max_bytes), "corrupt record")
    _warcio(records.read_to_end)
    return data


def _fetch_facts(record: ArcWarcRecord, records: ArchiveIterator) -> dict[str, Any] | None:
    """The fetch facts of a capture's metadata record; None when they are not a JSON object."""
    body = _warcio(lambda: record.content_stream().read(FETCH_MAX_BYTES + 1), "corrupt record")
    _warcio(records.read_to_end)
    try:
        facts = json.loads(body) if len(body) <= FETCH_MAX_BYTES else None
    except ValueError:
        return None
    return facts if isinstance(facts, dict) else None


def _malformed(record: ArcWarcRecord, item: str, source: str) -> Rejected | None:
    """The rejection of a record with no valid length (WARC Content-Length, ARC length), or None."""
    headers = record.rec_headers
    declared = headers.get_header("Content-Length") or headers.get_header("length") or ""
    if declared.strip().isdigit():
        return None
    reason = "record without a valid Content-Length (truncated or corrupt WARC)"
    return Rejected(item, source, reason)


def _cut(record: ArcWarcRecord) -> str | None:
    """How far the record, read to its end, fell short of its WARC Content-Length, or None."""
    missing = getattr(record.raw_stream, "limit", 0)
    return f"payload ends {missing:,} bytes before the record's Content-Length" if missing else None


def _http_shortfall(record: ArcWarcRecord) -> str | None:
    """How the HTTP body fell short of its HTTP Content-Length (not chunked), or None."""
    declared = (record.http_headers.get_header("Content-Length") or "").strip()
    chunked = (record.http_headers.get_header("Transfer-Encoding") or "").lower() == "chunked"
    if not declared.isdigit() or chunked or record.payload_length < 0:
        return None
    if record.payload_length < int(declared):
        return f"payload of {record.payload_length:,} bytes, HTTP Content-Length {int(declared):,}"
    return None
