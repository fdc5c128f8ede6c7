"""Start a capture: a job that fetches a list of URLs (webapp/capture), keeps what it fetched as a WARC in the
instance folder, imports the pages it got as a new batch and extracts them. `goldtext capture`
(cli/capture_commands.py) and the Add URLs form (views/capture.py) call `start_capture`.

The rules: only an admin captures (403), since a capture makes the server send requests for its user; at least
one URL and at most CAPTURE_MAX_URLS (400); each URL is an http(s) URL with a host and no space (400 naming the
first that is not: the scheme, port and address rules are applied again, per URL, when it is fetched and reported
there); the URLs to render are among them, and Playwright is installed to render them; turning robots.txt off is
recorded with the capture (job, audit event and WARC). The job is queued with its first step's chunk and the
start audited; the face commits and dispatches. The capture job's step (steps/capture_step.py) fetches the URLs
with `capture_urls`, as the user who started it: refused (403) when they may no longer capture."""

from __future__ import annotations

from collections.abc import Generator, Sequence
from dataclasses import dataclass
from importlib.util import find_spec
from typing import Any, BinaryIO
from urllib.parse import urlsplit

from sqlalchemy.orm import Session

from ..accounts.audit_actions import Action
from ..accounts.roles import ADMIN
from ..capture.browser_requests import BrowserRequests
from ..capture.capture_run import CaptureRun, Outcome
from ..capture.fetcher import Fetcher
from ..capture.render import Renderer
from ..capture.warc_records import warcinfo
from ..corpus.importer import start_batch
from ..foundation.settings import Settings
from ..jobs.records import create_job
from ..models import Job
from .outcome import Actor, Refused, needs


@dataclass(frozen=True)
class CaptureRequest:
    urls: tuple[str, ...]
    obey_robots: bool = True
    extractors: tuple[str, ...] = ()
    """The extractors run on the captured pages (none: every one that can run)."""
    render: tuple[str, ...] = ()
    """The URLs also rendered in Chromium (each must be one of `urls`)."""


RENDER_MARK = "render"
"""A word after a URL on its line that asks for that URL to be rendered in Chromium too."""


def _lines(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]


def _marked(line: str) -> bool:
    parts = line.split()
    return len(parts) == 2 and parts[1].lower() == RENDER_MARK


def url_lines(text: str) -> list[str]:
    """The URLs of a pasted list or a file: one per line (a trailing `render` left off), blank lines and #
    comments left out."""
    return [line.split()[0] if _marked(line) else line for line in _lines(text)]


def render_lines(text: str) -> list[str]:
    """The URLs of a pasted list whose line ends with the word `render`: to be rendered in Chromium too."""
    return [line.split()[0] for line in _lines(text) if _marked(line)]


def checked_urls(urls: Sequence[str], max_urls: int) -> tuple[str, ...]:
    """The URLs, each once, in order; Refused (400) for none, too many, or one that is not an http(s) URL."""
    unique = tuple(dict.fromkeys(u.strip() for u in urls if u.strip()))
    if not unique:
        raise Refused(400, "Give at least one URL to capture.")
    if len(unique) > max_urls:
        raise Refused(400, f"{len(unique)} URLs: a capture takes at most {max_urls} (CAPTURE_MAX_URLS).")
    for url in unique:
        try:
            parts = urlsplit(url)
            parts.port  # noqa: B018 - raises ValueError on a port that is not a number
        except ValueError as error:
            raise Refused(400, f"{url!r} is not a URL: {error}") from None
        if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
            raise Refused(400, f"{url!r} is not an http or https URL with a host.")
        if any(character.isspace() for character in url):
            raise Refused(400, f"{url!r} is not a URL: it holds a space (only the word render may follow a URL).")
    return unique


ONLY_ADMINS = "Only an admin captures URLs: the server fetches them."


@needs(ADMIN, ONLY_ADMINS)
def start_capture(session: Session, settings: Settings, actor: Actor, request: CaptureRequest) -> Job:
    """The queued capture job (flushed), with its import batch; Refused by the rules above. Never commits."""
    urls = checked_urls(request.urls, settings.capture.max_urls)
    batch = start_batch(session, f"capture of {len(urls)} URL{'s' if len(urls) != 1 else ''}", "warc", actor.name)
    render = [url for url in urls if url in set(u.strip() for u in request.render)]
    if render and find_spec("playwright") is None:
        raise Refused(400, "Rendering in Chromium needs Playwright, which is not installed: pip install "
                           "'goldtext[render]', or capture without rendering.")
    params: dict[str, Any] = {"urls": list(urls), "obey_robots": request.obey_robots, "batch": batch.id,
                              "format": "warc", "site_from": "url", "extractors": list(request.extractors),
                              "render": render}
    job = create_job(session, "capture", params, actor.name, settings.lease.until())
    job.batch_id = batch.id
    actor.record(session, Action.CAPTURE, f"job {job.id}",
                 {"urls": len(urls), "obey_robots": request.obey_robots, "batch": batch.id, "rendered": len(render)})
    return job


@needs(ADMIN, ONLY_ADMINS)
def capture_urls(settings: Settings, actor: Actor, urls: Sequence[tuple[int, str]], render: Sequence[int],
                 obey_robots: bool) -> Generator[Outcome]:
    """Fetch these (index, URL) pairs by the capture settings' rules and limits, rendering in Chromium those whose
    index is in ``render``; yields each URL's outcome (its WARC records and report row) as it comes. Close the
    iterator to stop early: the fetcher and the browser are closed with it."""
    capture = settings.capture
    fetcher = Fetcher(capture.rules, capture.limits)
    renderer = Renderer(BrowserRequests(fetcher), capture.render, capture.limits.agent) if render else None
    run = CaptureRun(fetcher, obey_robots=obey_robots, delay=capture.delay, renderer=renderer,
                     style_max_bytes=capture.style_max_bytes)
    try:
        yield from run.run(urls, render=set(render))
    finally:
        if renderer is not None:
            renderer.close()
        fetcher.close()


def begin_warc(settings: Settings, stream: BinaryIO, name: str, obey_robots: bool) -> None:
    """Write a capture WARC's first record (`warcinfo`: the capture's settings, and whether robots.txt was
    obeyed)."""
    warcinfo(stream, name, settings.capture.record(obey_robots))
