"""datatrove's WARC reader, decoding each page as Goldtext decodes it on import.

datatrove's own reader tries UTF-8, then a byte-statistics guess; Goldtext decodes as browsers do (byte order
mark, HTTP charset, `<meta>`, then detection: webapp/corpus/decoding.py), and an extractor given other text
gives other output. So this reader keeps datatrove's file handling (BaseDiskReader: local or remote folders,
globs, shards per task, limits; the arguments of datatrove's WarcReader) without its decoders (cchardet,
python-magic) and without datatrove's check that warcio is installed (it reads the metadata of every installed
distribution, at each start; warcio is Goldtext's own dependency), and reads each record as Goldtext's WARC
reader does: `response` records of HTML with status 200, under the size cap, decoded by Goldtext. Other
records are counted (`skipped_records`). The raw bytes and the HTTP charset travel with the document (metadata
RAW, CHARSET) to the step, which keeps them when asked and drops them otherwise.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Literal

from datatrove.data import Document
from datatrove.pipeline.readers.base import BaseDiskReader

from ..corpus.decoding import charset_param, decode
from ..corpus.document import Limits
from ..corpus.streams import Unreadable, read_capped
from ..corpus.warc_reader import HTML_TYPES

RAW = "_raw"
CHARSET = "_charset"


def html_response(record: Any, cap: int) -> dict[str, Any] | str:
    """The record's page as datatrove's reader gives it (text, id, url, date) plus its raw bytes and charset,
    or why it is skipped."""
    headers = record.http_headers
    if record.rec_type != "response" or headers is None:
        return "not a response"
    content_type = headers.get_header("Content-Type") or ""
    if content_type.split(";")[0].strip().lower() not in HTML_TYPES:
        return "not HTML"
    if headers.get_statuscode() != "200":
        return f"HTTP {headers.get_statuscode()}"
    try:
        raw = read_capped(record.content_stream(), cap)
    except Unreadable:
        return "over the size cap"
    charset = charset_param(content_type)
    rec = record.rec_headers
    return {"text": decode(raw, charset).text, "id": rec.get_header("WARC-Record-ID"),
            "url": rec.get_header("WARC-Target-URI"), "date": rec.get_header("WARC-Date"),
            RAW: raw, CHARSET: charset}


class GoldtextWarcReader(BaseDiskReader):
    """A reader of WARC files (the arguments of datatrove's WarcReader) whose documents are decoded as Goldtext
    decodes a page; `max_bytes` caps a page's size as the import does (IMPORT_MAX_BYTES)."""

    name = "🕷 Warc (Goldtext decoding)"
    _requires_dependencies: list[str] = []  # warcio is Goldtext's own dependency: no check of it at each start

    def __init__(self, *args: Any, compression: Literal["infer", "gzip", "zstd"] | None = "infer",
                 max_bytes: int = Limits().max_bytes, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.compression = compression
        self.max_bytes = max_bytes

    def read_file(self, filepath: str) -> Iterator[Document]:
        from warcio.archiveiterator import ArchiveIterator

        with self.data_folder.open(filepath, "rb", compression=self.compression) as f:
            for number, record in enumerate(ArchiveIterator(f)):
                with self.track_time():
                    found = html_response(record, self.max_bytes)
                    if isinstance(found, str):
                        self.stat_update("skipped_records")
                        continue
                    document = self.get_document_from_dict(found, filepath, number)
                    if not document:
                        continue
                yield document
