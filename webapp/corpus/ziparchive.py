"""Reader for the folder layout (or the Readability test-page layout, when the zip holds
SLUG/source.html folders) inside a zip archive, member by member, as streams with caps; and `unpack`,
which writes a zip's members to a folder with the same checks, for the layouts read from a folder
(an export downloaded from the app is its folder in a zip: see readers.read_archive).

read_zip extracts nothing to disk. Members with an absolute path, a '..' in their path, or a symbolic
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
from collections.abc import Callable, Iterator
from pathlib import Path, PurePosixPath
from typing import Any, BinaryIO

from .document import Limits, RawDocument, Rejected
from .layout import read_layout
from .readability_pages import page_folders, read_pages
from .streams import CHUNK, Unreadable, read_capped

DRIVE = re.compile(r"^[A-Za-z]:")
READ_ERRORS = (zipfile.BadZipFile, zlib.error, EOFError, OSError, NotImplementedError, RuntimeError)


Members = dict[str, zipfile.ZipInfo]


def read_zip(source: str, limits: Limits) -> Iterator[RawDocument | Rejected]:
    """Pages of the folder layout inside the zip archive at source."""
    item_of = _items(source)

    def pages(members: Members, budget: _Budget) -> Iterator[RawDocument | Rejected]:
        def read(name: str) -> bytes:
            return budget.read(members[name])

        if page_folders(members):
            yield from read_pages(set(members), read, item_of, source)
        else:
            yield from read_layout(members, read, item_of, source)

    yield from _each_member(source, limits, pages)


def member_names(source: str) -> list[str]:
    """The names of the zip's members, [] when it is not a readable zip (read_zip says why)."""
    try:
        with zipfile.ZipFile(source) as archive:
            return archive.namelist()
    except (zipfile.BadZipFile, OSError):
        return []


def unpack(source: str, limits: Limits, folder: Path) -> Iterator[Rejected]:
    """Write the zip's members under folder with read_zip's checks (unsafe and hidden members, the
    member count cap, encryption) and its cap on the uncompressed bytes of the whole zip; a layout's
    own files (a pages.jsonl holds every page) are not held to the per-document cap, which its reader
    applies per page. The members not written come as Rejected."""
    item_of = _items(source)

    def write(members: Members, budget: _Budget) -> Iterator[Rejected]:
        for name, info in members.items():
            target = folder.joinpath(*PurePosixPath(name).parts)
            try:
                target.parent.mkdir(parents=True, exist_ok=True)
                with target.open("wb") as out:
                    budget.copy(info, out)
            except Unreadable as err:
                target.unlink(missing_ok=True)
                yield Rejected(item_of(name), source, str(err))
            except OSError as err:
                yield Rejected(item_of(name), source, f"not unpacked ({err.strerror or err})")

    yield from _each_member(source, limits, write)


def _each_member(source: str, limits: Limits,
                 use: Callable[[Members, _Budget], Iterator[Any]]) -> Iterator[Any]:
    """What `use` makes of the zip's members to read and the budget they are read with, after the
    rejections of the zip itself (unreadable) or of its members (see _members)."""
    try:
        archive = zipfile.ZipFile(source)
    except (zipfile.BadZipFile, OSError) as err:
        yield Rejected(Path(source).name, source, f"not a readable zip archive ({err})")
        return
    with archive:
        members, rejected = _members(archive, source, limits)
        yield from rejected
        yield from use(members, _Budget(archive, limits))


def _items(source: str) -> Callable[[str], str]:
    label = Path(source).name
    return lambda name: f"zip:{label}/{name}"


def _members(archive: zipfile.ZipFile, source: str,
             limits: Limits) -> tuple[Members, list[Rejected]]:
    """The members to read, by posix path (no folders, no hidden members), and the ones refused."""
    item_of = _items(source)
    members: Members = {}
    rejected = []
    files = (info for info in archive.infolist() if not info.is_dir())
    for count, info in enumerate(files, start=1):
        name = info.filename.replace("\\", "/")
        reason = unsafe_reason(info, name)
        if reason is None and count > limits.zip_max_members:
            reason = (f"not read: the zip holds more than {limits.zip_max_members:,} members "
                      "(zip bomb guard)")
        if reason is not None:
            rejected.append(Rejected(item_of(name), source, reason))
        elif not _hidden(name):
            members[PurePosixPath(name).as_posix()] = info
    return members, rejected


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

    def copy(self, info: zipfile.ZipInfo, out: BinaryIO) -> None:
        """Copy a member to out in chunks, whatever its size, within the whole zip's budget."""
        if info.flag_bits & 0x1:
            raise Unreadable("encrypted zip member")
        try:
            with self.archive.open(info) as stream:
                while chunk := stream.read(CHUNK):
                    self.left -= len(chunk)
                    if self.left < 0:
                        raise self.spent()
                    out.write(chunk)
        except READ_ERRORS as err:
            raise Unreadable(f"unreadable zip member ({err})") from err

    def spent(self) -> Unreadable:
        return Unreadable(
            f"not read: over {self.limits.zip_max_total:,} uncompressed bytes read from this zip "
            "(zip bomb guard)"
        )
