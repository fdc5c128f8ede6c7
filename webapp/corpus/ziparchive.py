"""Reader for the folder layout (or the Readability test-page layout, when the zip holds
SLUG/source.html folders) inside a zip archive, member by member, as streams with caps.

Nothing is extracted to disk. Members with an absolute path, a '..' in their path, or a symbolic
link are rejected; each member is read in chunks and stopped past the per-document cap (its
header's size is not trusted); past the member count cap or the total uncompressed bytes cap, the
remaining members are rejected (zip bomb guard). Hidden members (a path part starting with a dot,
__MACOSX) are left out.
"""

from __future__ import annotations

import re
import stat
import zipfile
import zlib
from collections.abc import Iterator
from pathlib import Path, PurePosixPath

from .document import Limits, RawDocument, Rejected
from .layout import read_layout
from .readability_pages import page_folders, read_pages
from .streams import Unreadable, read_capped

DRIVE = re.compile(r"^[A-Za-z]:")
READ_ERRORS = (zipfile.BadZipFile, zlib.error, EOFError, OSError, NotImplementedError, RuntimeError)


def read_zip(source: str, limits: Limits) -> Iterator[RawDocument | Rejected]:
    """Pages of the folder layout inside the zip archive at source."""
    label = Path(source).name

    def item_of(name: str) -> str:
        return f"zip:{label}/{name}"

    try:
        archive = zipfile.ZipFile(source)
    except (zipfile.BadZipFile, OSError) as err:
        yield Rejected(label, source, f"not a readable zip archive ({err})")
        return
    with archive:
        members: dict[str, zipfile.ZipInfo] = {}
        files = (info for info in archive.infolist() if not info.is_dir())
        for count, info in enumerate(files, start=1):
            name = info.filename.replace("\\", "/")
            reason = unsafe_reason(info, name)
            if reason is None and count > limits.zip_max_members:
                reason = (f"not read: the zip holds more than {limits.zip_max_members:,} members "
                          "(zip bomb guard)")
            if reason is not None:
                yield Rejected(item_of(name), source, reason)
            elif not _hidden(name):
                members[PurePosixPath(name).as_posix()] = info
        budget = _Budget(archive, limits)

        def read(name: str) -> bytes:
            return budget.read(members[name])

        if page_folders(members):
            yield from read_pages(set(members), read, item_of, source)
        else:
            yield from read_layout(members, read, item_of, source)


def unsafe_reason(info: zipfile.ZipInfo, name: str) -> str | None:
    """Why a member must not be read whatever its content, or None."""
    if name.startswith("/") or DRIVE.match(name):
        return "zip member with an absolute path"
    if ".." in PurePosixPath(name).parts:
        return "zip member with '..' in its path"
    if stat.S_ISLNK(info.external_attr >> 16):
        return "zip member that is a symbolic link"
    return None


def _hidden(name: str) -> bool:
    return any(part.startswith(".") or part == "__MACOSX" for part in PurePosixPath(name).parts)


class _Budget:
    """Reads members while counting the uncompressed bytes read from the whole archive."""

    def __init__(self, archive: zipfile.ZipFile, limits: Limits) -> None:
        self.archive = archive
        self.limits = limits
        self.left = limits.zip_max_total

    def read(self, info: zipfile.ZipInfo) -> bytes:
        if self.left < 0:
            raise self.spent()
        if info.flag_bits & 0x1:
            raise Unreadable("encrypted zip member")
        try:
            with self.archive.open(info) as stream:
                data = read_capped(stream, self.limits.max_bytes)
        except Unreadable:
            self.left -= self.limits.max_bytes + 1
            raise
        except READ_ERRORS as err:
            raise Unreadable(f"unreadable zip member ({err})") from err
        self.left -= len(data)
        if self.left < 0:
            raise self.spent()
        return data

    def spent(self) -> Unreadable:
        return Unreadable(
            f"not read: over {self.limits.zip_max_total:,} uncompressed bytes read from this zip "
            "(zip bomb guard)"
        )
