"""An export folder packed as one zip (the browser's download), file by file from disk."""

from __future__ import annotations

import zipfile
from pathlib import Path


def zip_folder(folder: Path, target: Path) -> Path:
    """Write every file under folder into the zip at target, under folder's name; gzip files stored."""
    with zipfile.ZipFile(target, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(p for p in folder.rglob("*") if p.is_file()):
            method = zipfile.ZIP_STORED if path.suffix == ".gz" else zipfile.ZIP_DEFLATED
            archive.write(path, f"{folder.name}/{path.relative_to(folder).as_posix()}", compress_type=method)
    return target
