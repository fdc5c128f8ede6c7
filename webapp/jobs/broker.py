"""The task-queue adapter: Huey carries "run chunk N" messages from whoever creates work to the workers.

With no `BROKER_URL`, the broker is an SQLite file in the instance folder (`queue.sqlite`): nothing
to install, and every process on the machine shares it. With `BROKER_URL=redis://host:6379/0`, Redis
carries the messages to workers on any machine. Huey takes a message off the queue when a worker
starts it (no late acknowledgement), so a message is only a wake-up call: the chunk's lease in the
database is what makes a killed worker's chunk run again (see leases.reap).

One Broker per app and process, made on first use (a web process forked by gunicorn makes its own).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from huey import RedisHuey, SqliteHuey
from huey.api import Huey, TaskWrapper
from redis import ConnectionPool
from redis.backoff import NoBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError
from redis.retry import Retry

from ..foundation.engine import private_file
from ..foundation.settings import settings_of
from .host import Host
from .runner import Runner

EXTENSION = "goldtext.broker"
RUNNER = "goldtext.runner"
QUEUE_FILE = "queue.sqlite"


@dataclass
class Broker:
    huey: Huey
    task: TaskWrapper
    pid: int

    def send(self, chunk_ids: Sequence[int], delay: float = 0) -> None:
        for chunk_id in chunk_ids:
            if delay > 0:
                self.task.schedule(args=(chunk_id,), delay=delay)
            else:
                self.task(chunk_id)

    def idle(self) -> bool:
        """No message waits: a queued chunk older than its grace lost its message."""
        return self.huey.pending_count() == 0

    def reachable(self) -> bool:
        self.huey.pending_count()
        return True


def describe_broker(host: Host) -> str:
    url = settings_of(host).workers.broker_url
    return _redacted(url) if url else f"embedded (SQLite, {queue_path(host)})"


def queue_path(host: Host) -> Path:
    return Path(host.instance_path) / QUEUE_FILE


def _redacted(url: str) -> str:
    """The URL without its password, for messages and /health."""
    if "@" not in url:
        return url
    scheme, rest = url.split("://", 1)
    return f"{scheme}://***@{rest.split('@', 1)[1]}"


def make_huey(host: Host) -> Huey:
    url = settings_of(host).workers.broker_url
    if not url:
        private_file(queue_path(host))
        return SqliteHuey("goldtext", filename=str(queue_path(host)), results=False, utc=True)
    # BROKER_URL is a Redis URL (checked at start-up, settings.py): a connection dropped by a Redis restart is
    # made again once, at once, rather than failing the first command after it; an unreachable Redis fails
    # within seconds instead of hanging
    pool = ConnectionPool.from_url(url, retry=Retry(NoBackoff(), 1),
                                   retry_on_error=[RedisConnectionError, RedisTimeoutError],
                                   socket_connect_timeout=5, socket_timeout=10)
    return RedisHuey("goldtext", connection_pool=pool, results=False, utc=True)


def broker(host: Host) -> Broker:
    """This process's broker for the app (made again in a forked child)."""
    # the app's own dict, even when `host` is a proxy that stands for the app only in its context (Flask's
    # current_app, as a command's dispatch passes it): the task runs in the worker's threads, outside any context
    extensions = host.extensions
    found: Broker | None = extensions.get(EXTENSION)
    if found is None or found.pid != os.getpid():
        huey = make_huey(host)

        @huey.task(name="goldtext.run_chunk")
        def run_chunk(chunk_id: int) -> None:
            runner: Runner | None = extensions.get(RUNNER)
            if runner is None:
                raise RuntimeError("a chunk message reached a process that runs no worker")
            runner.deliver(runner.run_chunk(chunk_id) or [])

        found = Broker(huey, run_chunk, os.getpid())
        extensions[EXTENSION] = found
    return found


def send(host: Host, chunk_ids: Sequence[int], delay: float = 0) -> None:
    """Send the chunks to the workers (call after the transaction that created them committed), `delay`
    seconds from now (Huey's schedule, which every consumer's scheduler reads)."""
    if chunk_ids:
        broker(host).send(chunk_ids, delay)
