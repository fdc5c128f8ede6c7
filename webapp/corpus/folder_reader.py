"""Reader for a folder of saved pages (searched recursively), or for one .html file."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

from .document import Limits, RawDocument, Rejected
from .layout import GOLD_SUFFIX, MARKDOWN_SUFFIX, URL_SUFFIX, page_stem, read_layout
from .streams import read_file


def read_folder(source: str, limits: Limits) -> Iterator[RawDocument | Rejected]:
    """Pages of the folder layout under source; source may also be a single page file.

    Hidden files and folders (names starting with a dot) are left out. A single file takes its
    NAME.gold.txt, NAME.gold.md and NAME.url from beside it, but not its folder's index.
    """
    path = Path(source)
    if path.is_dir():
        root, names = path, _relative_names(path)
    elif (stem := page_stem(path.name)) is None:
        return iter([Rejected(path.name, source, "not a folder, nor an .html or .htm file")])
    else:
        siblings = (stem + GOLD_SUFFIX, stem + MARKDOWN_SUFFIX, stem + URL_SUFFIX)
        root = path.parent
        names = [path.name, *(name for name in siblings if (root / name).is_file())]
    return read_layout(names, lambda name: read_file(root / name, limits.max_bytes), str, source)


def _relative_names(root: Path) -> list[str]:
    names = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = [name for name in dirs if not name.startswith(".")]
        base = Path(folder).relative_to(root)
        names += [(base / name).as_posix() for name in files if not name.startswith(".")]
    return names
