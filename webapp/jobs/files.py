"""Files that belong to a job (an upload's files, an export's zip), kept in the database in parts.

In the database, a worker on another machine reads an upload the web process stored, and any web
process sends an export a worker wrote: no shared disk is needed. Parts keep each row small; a file is
written and read a part at a time, never whole in memory.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session, sessionmaker

from ..models import JobFile

PART = 1024 * 1024


def store_file(session: Session, job_id: int, name: str, stream: BinaryIO) -> int:
    """Store a stream under name (a relative path) as the job's file; returns its size. Flushes each part."""
    size = 0
    for part, data in enumerate(iter(lambda: stream.read(PART), b"")):
        session.add(JobFile(job_id=job_id, name=name, part=part, data=data))
        session.flush()
        size += len(data)
    if size == 0:
        session.add(JobFile(job_id=job_id, name=name, part=0, data=b""))
    return size


def file_names(session: Session, job_id: int) -> list[str]:
    return list(session.scalars(select(JobFile.name).where(JobFile.job_id == job_id).distinct().order_by(JobFile.name)))


def file_size(session: Session, job_id: int, name: str) -> int | None:
    """The stored file's size, None if the job has no such file."""
    found = session.execute(
        select(func.count(JobFile.id), func.sum(func.length(JobFile.data)))
        .where(JobFile.job_id == job_id, JobFile.name == name)
    ).one()
    return None if not found[0] else int(found[1] or 0)


def iter_file(maker: sessionmaker[Session], job_id: int, name: str) -> Iterator[bytes]:
    """The file's bytes a part at a time, each part read in a short transaction of its own (a download
    holds no transaction open while the client reads)."""
    part = 0
    while True:
        with maker() as session:
            data = session.scalar(select(JobFile.data).where(
                JobFile.job_id == job_id, JobFile.name == name, JobFile.part == part))
        if data is None:
            return
        yield data
        part += 1


def unpack(maker: sessionmaker[Session], job_id: int, folder: Path) -> list[Path]:
    """Write every file of the job under folder (names are the relative paths they were stored with)."""
    with maker() as session:
        names = file_names(session, job_id)
    written = []
    for name in names:
        target = (folder / name).resolve()
        if folder.resolve() not in target.parents:
            raise ValueError(f"job {job_id}: stored file name {name!r} leaves its folder")
        target.parent.mkdir(parents=True, exist_ok=True)
        with target.open("wb") as out:
            for data in iter_file(maker, job_id, name):
                out.write(data)
        written.append(target)
    return written


def drop_files(session: Session, job_id: int) -> None:
    """Forget every file of the job (imported, or its job cancelled or failed)."""
    session.execute(delete(JobFile).where(JobFile.job_id == job_id))


def store_path(maker: sessionmaker[Session], job_id: int, name: str, path: Path) -> int:
    """Store a file from disk in one transaction of its own: a half-stored file is never seen."""
    with maker() as session, path.open("rb") as stream:
        size = store_file(session, job_id, name, stream)
        session.commit()
    return size
