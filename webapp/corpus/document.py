"""What the readers yield: a document's raw bytes and what its layout says of it, or a rejection."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class ReadAnnotation:
    """One annotator's own annotation of the page, as an export (`jsonl`) carries it."""

    author: str
    text: str | None  # its plain text (None: derived from its Markdown)
    page_type: str
    status: str
    provenance: dict[str, Any] | None = None  # where its text came from (annotation/provenance.py)
    markdown: str | None = None  # its Markdown (None: escaped from its text)
    guideline_version: int | None = None  # the guideline version its revision recorded, when the export says
    metadata: dict[str, Any] | None = None  # its title, authors, published (corpus/metadata_fields.py)


@dataclass(frozen=True)
class Requisite:
    """A stylesheet, font or image a captured page loads, kept for its styled snapshot."""

    url: str  # the URL the page (or a stylesheet) names it by
    content_type: str
    data: bytes  # without its transfer compression


@dataclass(frozen=True)
class RawDocument:
    """One page as stored in its source, before any decoding."""

    item: str  # name of the item within its source, for the per-item report
    data: bytes  # raw bytes exactly as stored in the source
    source: str  # the path given by the user (file, folder, archive)
    url: str | None = None
    charset: str | None = None  # transport charset (HTTP Content-Type header / WARC), if any
    gold: str | None = None  # gold text if the layout carries it (None with a Markdown gold: derived from it)
    markdown: str | None = None  # gold Markdown if the layout carries it (None: escaped from the gold text)
    # page type (a key of the taxonomy in force, webapp.foundation.vocabulary) if the layout carries it
    page_type: str | None = None
    folder: str | None = None  # sub-folder the item came from, relative to the given root
    snippets: dict[str, list[str]] | None = None  # snippet gold {"with": [...], "without": [...]}
    status: str | None = None  # gold status (webapp.foundation.vocabulary.GOLD_STATUSES key); "done" when not given
    layout: dict[str, Any] | None = None  # what a benchmark layout says of the page besides its gold (its
    # name, the page's id there, title, author, date...): kept in the page's facts under LAYOUT_FACT
    author: str | None = None  # who saved the gold, when the source says (an export); else "import"
    note: str | None = None  # the reviewer's note on the gold
    provenance: dict[str, Any] | None = None  # where the gold's text came from, when the source says
    annotations: tuple[ReadAnnotation, ...] = ()  # each annotator's own annotation, when the source has them
    metadata: dict[str, Any] | None = None  # the metadata gold: title, authors, published, as the layout gives
    # them (corpus/metadata_fields.py; checked by the import use case against annotation/article_metadata.py)
    fetch: dict[str, Any] | None = None  # how a capture fetched the page (its WARC's metadata record): kept
    # in the page's facts under FETCH_FACT
    guideline_version: int | None = None  # the guideline version the gold's revision recorded (an export)
    history: dict[str, Any] | None = None  # how an earlier instance made the gold (a `jsonl` export's effort
    # per revision, its annotators in order, each annotation's effort): kept in the page's facts under
    # HISTORY_FACT and written back by the export (exports/selection.py), so that a round trip keeps them
    rendered: str | None = None  # the DOM a capture serialised after rendering the page in Chromium
    screenshot: bytes | None = None  # the full-page PNG taken with that rendering
    requisites: tuple[Requisite, ...] = ()  # the stylesheets, fonts and images of the page's styled snapshot


    @property
    def has_gold(self) -> bool:
        """Whether the layout gives the page's gold, as text or as Markdown."""
        return self.gold is not None or self.markdown is not None


LAYOUT_FACT = "layout"
FETCH_FACT = "fetch"
HISTORY_FACT = "history"


@dataclass(frozen=True)
class Rejected:
    """An item that was not read as a document, with a reason a person can act on."""

    item: str
    source: str
    reason: str


@dataclass(frozen=True)
class Limits:
    """Caps that keep a hostile or broken input from exhausting memory."""

    max_bytes: int = 20 * 2**20  # per document
    zip_max_members: int = 20_000
    zip_max_total: int = 2 * 2**30  # total uncompressed bytes read from one zip
