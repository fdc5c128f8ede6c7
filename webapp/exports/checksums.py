"""SHA256SUMS: one `HEX  PATH` line per file of the export, the format `sha256sum -c` checks."""

from __future__ import annotations

import hashlib
from pathlib import Path

FILE = "SHA256SUMS"
CHUNK = 2**20


def file_digest(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as stream:
        while chunk := stream.read(CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def write_checksums(out: Path) -> Path:
    """Write out/SHA256SUMS for every other file under out, in path order."""
    files = sorted(p for p in out.rglob("*") if p.is_file() and p.relative_to(out).as_posix() != FILE)
    lines = [f"{file_digest(p)}  {p.relative_to(out).as_posix()}\n" for p in files]
    target = out / FILE
    target.write_text("".join(lines), encoding="utf-8", newline="\n")
    return target
