"""The checks every document passes whatever its layout: not empty, not over the cap, not binary."""

from __future__ import annotations

from .document import Limits, RawDocument, Rejected
from .streams import over_cap

SIGNATURES: tuple[tuple[bytes, str], ...] = (
    (b"\x89PNG", "PNG"),
    (b"%PDF", "PDF"),
    (b"PK\x03\x04", "ZIP"),
    (b"GIF87a", "GIF"),
    (b"GIF89a", "GIF"),
    (b"\xff\xd8\xff", "JPEG"),
    (b"\x1f\x8b", "gzip"),
)
UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")
NUL_WINDOW = 8 * 1024


def binary_reason(data: bytes, charset: str | None = None) -> str | None:
    """Why data is a binary file posing as HTML, or None.

    UTF-16 text holds NUL bytes: a UTF-16 BOM or a UTF-16/32 transport charset exempts the NUL test.
    """
    for magic, name in SIGNATURES:
        if data.startswith(magic):
            return f"binary file ({name} signature)"
    wide = data.startswith(UTF16_BOMS) or (charset or "").lower().startswith(("utf-16", "utf-32"))
    nul = -1 if wide else data.find(b"\x00", 0, NUL_WINDOW)
    if nul >= 0:
        return f"binary file (NUL byte at offset {nul:,})"
    return None


def problem(data: bytes, limits: Limits, charset: str | None = None) -> str | None:
    """The first reason data cannot be a page, or None."""
    if not data or data.isspace():
        return "empty payload"
    if len(data) > limits.max_bytes:
        return over_cap(len(data), limits.max_bytes)
    return binary_reason(data, charset)


def screen(doc: RawDocument | Rejected, limits: Limits) -> RawDocument | Rejected:
    """doc itself, or its rejection when it fails a common check."""
    if isinstance(doc, Rejected):
        return doc
    reason = problem(doc.data, limits, doc.charset)
    return doc if reason is None else Rejected(doc.item, doc.source, reason)
