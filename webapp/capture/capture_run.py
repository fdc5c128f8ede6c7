"""A capture run: each URL fetched politely (robots.txt obeyed unless the run says otherwise, one request
at a time per host, the host's delay between two of its requests: the larger of CAPTURE_DELAY_SECONDS
and its robots.txt Crawl-delay) and safely (the address rules), in turns over the hosts so that one slow
host does not hold the others. Each URL ends as one `Outcome`: its WARC part (when anything was fetched)
and its report row."""

from __future__ import annotations

import time
from collections.abc import Callable, Collection, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urlsplit

from .addresses import Blocked
from .fetcher import Fetcher, FetchFailed, Hop
from .render import Renderer, RenderFailed, Rendering
from .requisites import decoded_body, fetch_requisites
from .robots import Decision, Robots, RobotsBook, parsed_robots
from .warc_records import capture_part

KEPT_HEADERS = ("content-type", "content-language", "last-modified", "date", "etag", "server")
"""The response headers a page's fetch facts keep (the WARC keeps them all)."""


@dataclass(frozen=True)
class Outcome:
    index: int
    url: str
    status: str
    """"fetched", "refused" (by robots.txt, never fetched) or "failed"."""
    kind: str = ""
    """For a refusal or failure: DNS, refused by robots, timeout, too large, not HTML, blocked address,
    HTTP status, connection, too many redirects."""
    reason: str = ""
    final_url: str | None = None
    part: bytes = b""
    rendering: str = ""
    """For a page asked to be rendered: "rendered", or why it could not be (the raw page is kept all the same)."""

    def row(self) -> dict[str, Any]:
        row: dict[str, Any] = {"index": self.index, "item": self.url, "status": self.status}
        if self.kind:
            row["reason"] = f"{self.kind}: {self.reason}"
        if self.final_url and self.final_url != self.url:
            row["final_url"] = self.final_url
        if self.rendering:
            row["rendering"] = self.rendering
        return row


@dataclass
class Politeness:
    delay: float
    crawl_delay: Callable[[str], float | None]
    clock: Callable[[], float] = time.monotonic
    sleep: Callable[[float], None] = time.sleep
    _last: dict[str, float] = field(default_factory=dict)

    def wait_for(self, url: str, obey_robots: bool) -> None:
        host = (urlsplit(url).hostname or "").lower()
        delay = max(self.delay, (self.crawl_delay(url) or 0.0) if obey_robots else 0.0)
        if host in self._last:
            left = self._last[host] + delay - self.clock()
            if left > 0:
                self.sleep(left)
        self._last[host] = self.clock()


def in_turns(urls: Sequence[tuple[int, str]]) -> Iterator[tuple[int, str]]:
    """The URLs in turns over their hosts (first of each host, then second of each, ...)."""
    by_host: dict[str, list[tuple[int, str]]] = {}
    for index, url in urls:
        by_host.setdefault((urlsplit(url).hostname or "").lower(), []).append((index, url))
    queues = list(by_host.values())
    while queues:
        for queue in list(queues):
            yield queue.pop(0)
            if not queue:
                queues.remove(queue)


@dataclass
class CaptureRun:
    fetcher: Fetcher
    obey_robots: bool = True
    delay: float = 1.0
    sleep: Callable[[float], None] = time.sleep
    renderer: Renderer | None = None
    """Opens the pages asked to be rendered in Chromium (None: no page is)."""
    style_max_bytes: int = 0
    """The most bytes of a page's stylesheets, fonts and images kept (0: none is fetched)."""
    _robots_hops: dict[str, list[Hop]] = field(default_factory=dict)
    _written_robots: set[str] = field(default_factory=set)

    def __post_init__(self) -> None:
        self.book = RobotsBook(self._fetch_robots, self.fetcher.limits.agent)
        self.polite = Politeness(self.delay, self.book.crawl_delay, sleep=self.sleep)

    def _fetch_robots(self, url: str) -> Robots:
        self.polite.wait_for(url, obey_robots=False)
        try:
            hops = self.fetcher.fetch(url, html_only=False)
        except FetchFailed as failed:
            self._robots_hops[url] = failed.hops
            last = failed.hops[-1] if failed.hops else None
            if last is not None and 400 <= last.status < 600:
                return Robots(url, last.status)
            return Robots(url, None, error=f"{failed.kind}: {failed.reason}")
        self._robots_hops[url] = hops
        return parsed_robots(url, hops[-1].status, hops[-1].body)

    def run(self, urls: Sequence[tuple[int, str]], render: Collection[int] = ()) -> Iterator[Outcome]:
        """Each URL's outcome; those whose index is in `render` are also rendered in Chromium."""
        for index, url in in_turns(urls):
            yield self.one(index, url, index in render)

    def _new_robots_hops(self, decision: Decision) -> list[Hop]:
        """The hops of the robots.txt that decided, the first time it decides (each is written once)."""
        if decision.robots_url in self._written_robots:
            return []
        self._written_robots.add(decision.robots_url)
        return self._robots_hops.get(decision.robots_url, [])

    def requisite(self, url: str, robots_hops: list[Hop]) -> list[Hop]:
        """A page requisite's hops, fetched as a page is (robots.txt, the host's delay, the address rules);
        the hops of a robots.txt read for it are added to `robots_hops`."""
        if self.obey_robots:
            decision = self.book.decide(url)
            robots_hops += self._new_robots_hops(decision)
            if not decision.allowed:
                raise FetchFailed("refused by robots", decision.reason)
        self.polite.wait_for(url, self.obey_robots)
        return self.fetcher.fetch(url, html_only=False)

    def _render(self, hops: list[Hop]) -> tuple[Rendering | None, dict[str, Any] | None]:
        final = hops[-1]
        if self.renderer is None:
            return None, None
        try:
            rendering = self.renderer.render(final.url, decoded_body(final),
                                             final.header("content-type") or "text/html")
        except RenderFailed as error:
            return None, {"error": str(error)}
        return rendering, rendering.facts

    def one(self, index: int, url: str, render: bool = False) -> Outcome:
        try:
            self.fetcher.rules.check_url(url)
        except Blocked as error:
            return Outcome(index, url, "failed", "blocked address", str(error))
        decision: Decision | None = None
        robots_hops: list[Hop] = []
        if self.obey_robots:
            decision = self.book.decide(url)
            robots_hops = self._new_robots_hops(decision)
            if not decision.allowed:
                return Outcome(index, url, "refused", "refused by robots", decision.reason,
                               part=capture_part(robots_hops, None))
        self.polite.wait_for(url, self.obey_robots)
        try:
            hops = self.fetcher.fetch(url)
        except FetchFailed as failed:
            return Outcome(index, url, "failed", failed.kind, failed.reason,
                           part=capture_part([*robots_hops, *failed.hops], None))
        facts = fetch_facts(url, hops, decision)
        rendering, render_facts = self._render(hops) if render else (None, None)
        if render_facts is not None:
            facts["render"] = render_facts
        requisite_hops: list[Hop] = []
        if self.style_max_bytes > 0:
            documents = [(decoded_body(hops[-1]).decode("utf-8", errors="replace"), hops[-1].url)]
            if rendering is not None:
                documents.append((rendering.html, hops[-1].url))
            requisites = fetch_requisites(documents, lambda u: self.requisite(u, requisite_hops),
                                          self.style_max_bytes)
            requisite_hops += requisites.hops
            facts["styles"] = requisites.as_fact()
        said = "" if not render else "rendered" if rendering is not None else str((render_facts or {}).get("error"))
        return Outcome(index, url, "fetched", final_url=hops[-1].url,
                       part=capture_part([*robots_hops, *hops], facts, rendering, requisite_hops), rendering=said)


def fetch_facts(url: str, hops: Sequence[Hop], decision: Decision | None) -> dict[str, Any]:
    """What a captured page's facts record of its fetch."""
    final = hops[-1]
    return {
        "requested_url": url,
        "final_url": final.url,
        "status": final.status,
        "http_version": final.http_version,
        "redirects": [{"url": hop.url, "status": hop.status} for hop in hops[:-1]],
        "headers": {name: value for name, value in final.headers if name.lower() in KEPT_HEADERS},
        "fetched_at": final.fetched_at.astimezone(UTC).isoformat(timespec="seconds"),
        "robots": decision.as_fact() if decision is not None else {"obeyed": False},
        "captured_by": "goldtext capture",
        "captured_at": datetime.now(UTC).isoformat(timespec="seconds"),
    }
