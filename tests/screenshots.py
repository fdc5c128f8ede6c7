"""The guides' screenshots, taken in Chromium at 1366x768 by the tests that check the views they show, and
written to docs/images/ only when asked (GOLDTEXT_RETAKE_SCREENSHOTS=1): a picture depends on what is
installed, so an ordinary run never changes the checkout. An image is rewritten only when it differs from
the one there."""

from __future__ import annotations

import os
import struct
import zlib
from pathlib import Path

IMAGES = Path(__file__).resolve().parents[1] / "docs" / "images"
WIDTH, HEIGHT = 1366, 768
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def png_size(path: Path) -> tuple[int, int]:
    """Width and height from a PNG's IHDR chunk, after checking the signature."""
    head = path.read_bytes()[:24]
    assert head[:8] == PNG_SIGNATURE, f"{path.name} is not a PNG"
    length, chunk, width, height = struct.unpack(">I4sII", head[8:24])
    assert (length, chunk) == (13, b"IHDR"), f"{path.name} does not start with its IHDR chunk"
    return width, height


def pixel_rows(png: bytes) -> list[bytes]:
    """The image's rows as stored (filter byte and pixels), from its IDAT chunks."""
    pos, data = 8, b""
    height = 0
    while pos < len(png):
        length, page_type = struct.unpack(">I4s", png[pos:pos + 8])
        body = png[pos + 8:pos + 8 + length]
        if page_type == b"IHDR":
            height = struct.unpack(">I", body[4:8])[0]
        elif page_type == b"IDAT":
            data += body
        pos += 12 + length
    raw = zlib.decompress(data)
    stride = len(raw) // height
    return [raw[i * stride:(i + 1) * stride] for i in range(height)]


def differs(old: bytes, new: bytes) -> bool:
    """More than 1% of the rows differ: the view changed, not a glyph at the edge of a scrolled pane."""
    before, after = pixel_rows(old), pixel_rows(new)
    if len(before) != len(after):
        return True
    return sum(a != b for a, b in zip(before, after)) > len(after) // 100


def shoot(tab, name: str, tmp_path: Path, masked: str | None = None) -> Path:
    """The view's screenshot; when retaking is asked, written to docs/images/NAME if it differs from the one
    there."""
    fresh = tmp_path / name
    mask = [tab.locator(masked)] if masked else []
    tab.screenshot(path=str(fresh), mask=mask, mask_color="#eef1f4")
    assert png_size(fresh) == (WIDTH, HEIGHT)
    path = IMAGES / name
    if os.environ.get("GOLDTEXT_RETAKE_SCREENSHOTS") != "1":
        return fresh
    if not path.is_file() or differs(path.read_bytes(), fresh.read_bytes()):
        IMAGES.mkdir(parents=True, exist_ok=True)
        path.write_bytes(fresh.read_bytes())
    return path
