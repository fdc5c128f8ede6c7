"""What a step sees while it runs one chunk: the job's parameters, the chunk's work, sessions, the
worker's extractor pool, and the checks that stop it when its job is cancelled or its lease is lost."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from sqlalchemy.orm import Session, sessionmaker

from ..extractors.process_pool import ExtractorPool
from ..foundation.settings import Settings, settings_of
from .host import Host
from .leases import holds
from .records import add_progress, count_progress, set_stage

T = TypeVar("T")
PROGRESS_EVERY = 0.5  # seconds between progress writes of a step that counts many small things


class Stopped(Exception):
    """The chunk's job was cancelled, or another worker took the chunk over: stop, store nothing more."""


@dataclass
class Context:
    host: Host
    writer: sessionmaker[Session]
    reader: sessionmaker[Session]
    job_id: int
    chunk_id: int
    worker: str
    kind: str
    params: dict[str, Any]
    work: Any
    pool: Callable[[], ExtractorPool]
    _last_progress: float = field(default=0.0, repr=False)

    @property
    def settings(self) -> Settings:
        """What the app's settings decide (webapp/foundation/settings.py)."""
        return settings_of(self.host)

    def check(self, session: Session) -> None:
        """Raise Stopped unless this worker still holds the chunk of an open job (call inside the
        transaction that is about to write)."""
        if not holds(session, self.chunk_id, self.worker):
            raise Stopped

    def progress(self, done: int = 0, errors: int = 0, session: Session | None = None) -> None:
        """Count finished work: inside `session`'s transaction (the one storing the work), or in a
        short transaction of its own."""
        if session is not None:
            count_progress(session, self.job_id, done, errors)
        else:
            add_progress(self.writer, self.job_id, done, errors)

    def in_parts(self, items: Sequence[T], size: int) -> Iterator[tuple[Sequence[T], Session]]:
        """Each part of `size` items with a write transaction of its own: checked (see `check`) before the
        caller's work on it, then counted as done and committed."""
        for start in range(0, len(items), size):
            part = items[start : start + size]
            with self.writer() as session:
                self.check(session)
                yield part, session
                self.progress(len(part), session=session)
                session.commit()

    def stage(self, name: str, total: int | None = None) -> None:
        set_stage(self.writer, self.job_id, name, total)

    def due(self) -> bool:
        """True at most every PROGRESS_EVERY seconds: for steps that report progress as they go."""
        now = time.monotonic()
        if now - self._last_progress < PROGRESS_EVERY:
            return False
        self._last_progress = now
        return True


Follow = list[tuple[str, Any]]
"""What a step returns: the chunks that follow it, (step, work) pairs."""
