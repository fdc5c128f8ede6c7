"""Input files the import tests write: folders of pages, zip archives (with symlink members), WARCs."""

from __future__ import annotations

import io
import stat
import zipfile
from pathlib import Path

from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter


def write_files(root: Path, files: dict[str, bytes | str]) -> Path:
    for name, content in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content.encode() if isinstance(content, str) else content)
    return root


def make_zip(path: Path, members: dict[str, bytes | str], symlinks: tuple[str, ...] = ()) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, content in members.items():
            info = zipfile.ZipInfo(name)
            info.compress_type = zipfile.ZIP_DEFLATED
            if name in symlinks:
                info.external_attr = (stat.S_IFLNK | 0o777) << 16
            archive.writestr(info, content)
    return path


def warc_bytes(
    records: list[dict], gzipped: bool = False, content_type: str = "text/html", body: bytes | None = None
) -> bytes:
    """A WARC of records given as url, body, status, type, content_type, headers (HTTP), warc (record
    headers); `content_type` and `body` are the defaults of records that leave them out."""
    buffer = io.BytesIO()
    writer = WARCWriter(buffer, gzip=gzipped)
    for spec in records:
        headers = [("Content-Type", spec.get("content_type", content_type)), *spec.get("headers", [])]
        http = StatusAndHeaders(spec.get("status", "200 OK"), headers, protocol="HTTP/1.1")
        record = writer.create_warc_record(
            spec["url"], spec.get("type", "response"), payload=io.BytesIO(spec.get("body", body)),
            http_headers=http, warc_headers_dict=spec.get("warc", {}),
        )
        writer.write_record(record)
    return buffer.getvalue()
