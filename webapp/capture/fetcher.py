"""Fetching one URL for a capture with httpx: every connection through the guarded backend, redirects
followed by hand (each hop checked and recorded), HTTP/2 where the server offers it, compressed transfer
accepted (the body is kept as sent), a timeout per request and a deadline for the whole URL, a size
limit, and retries with backoff on 429 and 5xx answers that honour Retry-After."""

from __future__ import annotations

import email.utils
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from urllib.parse import urljoin

import httpcore
import httpx

from .addresses import AddressRules, Blocked
from .guarded_backend import GuardedBackend, Resolver, system_resolver

RETRIED = frozenset({429, 500, 502, 503, 504})
REDIRECTS = frozenset({301, 302, 303, 307, 308})
HTML_TYPES = ("text/html", "application/xhtml+xml")


@dataclass(frozen=True)
class FetchLimits:
    timeout: float = 20.0
    """Seconds for one request: connecting, and each wait for data."""
    total: float = 60.0
    """Seconds for one URL, its redirects and retries included."""
    max_bytes: int = 10 * 1024 * 1024
    retries: int = 2
    max_redirects: int = 5
    agent: str = "Goldtext"


@dataclass(frozen=True)
class Hop:
    """One HTTP exchange: what was asked and what came back, the body as sent (still content-encoded)."""

    url: str
    status: int
    reason: str
    headers: list[tuple[str, str]]
    request_headers: list[tuple[str, str]]
    http_version: str
    body: bytes
    fetched_at: datetime

    def header(self, name: str) -> str | None:
        return next((v for k, v in self.headers if k.lower() == name.lower()), None)


class FetchFailed(Exception):
    """A URL that gave no page, with the kind of failure (the capture report's column) and the reason."""

    def __init__(self, kind: str, reason: str, hops: list[Hop] | None = None) -> None:
        super().__init__(f"{kind}: {reason}")
        self.kind = kind
        self.reason = reason
        self.hops = hops or []


@dataclass
class Fetcher:
    rules: AddressRules
    limits: FetchLimits = field(default_factory=FetchLimits)
    resolve: Resolver = system_resolver
    sleep: Callable[[float], None] = time.sleep
    _client: httpx.Client | None = field(default=None, repr=False)

    @property
    def client(self) -> httpx.Client:
        if self._client is None:
            transport = httpx.HTTPTransport(http2=True)
            # httpx builds its connection pool without a way to name the network backend: the pool is
            # replaced by one whose every connection goes through the guarded backend.
            transport._pool = httpcore.ConnectionPool(
                ssl_context=httpx.create_ssl_context(), http1=True, http2=True,
                network_backend=GuardedBackend(self.rules, self.resolve))
            self._client = httpx.Client(
                transport=transport, follow_redirects=False, trust_env=False,
                timeout=httpx.Timeout(self.limits.timeout),
                headers={"User-Agent": self.limits.agent,
                         "Accept": "text/html,application/xhtml+xml;q=0.9,*/*;q=0.5",
                         "Accept-Encoding": "gzip, deflate"})
        return self._client

    def close(self) -> None:
        if self._client is not None:
            self._client.close()

    def fetch(self, url: str, html_only: bool = True) -> list[Hop]:
        """The hops from `url` to its final answer (the last), a 2xx one; FetchFailed otherwise."""
        deadline = time.monotonic() + self.limits.total
        hops: list[Hop] = []
        for _ in range(self.limits.max_redirects + 1):
            try:
                self.rules.check_url(url)
                hop = self._with_retries(url, deadline, html_only, hops)
            except Blocked as error:
                raise FetchFailed("blocked address", str(error), hops) from None
            hops.append(hop)
            location = hop.header("location")
            if hop.status in REDIRECTS and location:
                url = urljoin(url, location)
                continue
            if not 200 <= hop.status < 300:
                raise FetchFailed("HTTP status", f"HTTP {hop.status} {hop.reason}".strip(), hops)
            return hops
        raise FetchFailed("too many redirects", f"more than {self.limits.max_redirects} redirects", hops)

    def _with_retries(self, url: str, deadline: float, html_only: bool, hops: list[Hop]) -> Hop:
        for attempt in range(self.limits.retries + 1):
            hop = self._once(url, deadline, html_only, hops)
            if hop.status not in RETRIED or attempt == self.limits.retries:
                return hop
            wait = retry_after(hop.header("retry-after")) or 2.0 ** attempt
            if time.monotonic() + wait > deadline:
                return hop
            self.sleep(wait)
        raise AssertionError("unreachable")

    def _once(self, url: str, deadline: float, html_only: bool, hops: list[Hop]) -> Hop:
        left = deadline - time.monotonic()
        if left <= 0:
            raise FetchFailed("timeout", f"more than {self.limits.total:g} s for this URL", hops)
        timeout = httpx.Timeout(min(self.limits.timeout, left))
        fetched_at = datetime.now(UTC)
        try:
            with self.client.stream("GET", url, timeout=timeout) as response:
                kind = (response.headers.get("content-type") or "").split(";")[0].strip().lower()
                if html_only and 200 <= response.status_code < 300 and kind not in HTML_TYPES:
                    raise FetchFailed("not HTML", f"Content-Type {kind or '(none)'}", hops)
                declared = response.headers.get("content-length", "")
                if declared.isdigit() and int(declared) > self.limits.max_bytes:
                    raise FetchFailed("too large", f"{int(declared):,} bytes declared, the limit is "
                                                   f"{self.limits.max_bytes:,}", hops)
                body = bytearray()
                for chunk in response.iter_raw():
                    body += chunk
                    if len(body) > self.limits.max_bytes:
                        raise FetchFailed("too large", f"more than {self.limits.max_bytes:,} bytes", hops)
                    if time.monotonic() > deadline:
                        raise FetchFailed("timeout", f"more than {self.limits.total:g} s for this URL", hops)
                return Hop(str(response.url), response.status_code, response.reason_phrase,
                           [(k, v) for k, v in response.headers.multi_items()],
                           [(k, v) for k, v in response.request.headers.multi_items()],
                           response.http_version, bytes(body), fetched_at)
        except httpx.TimeoutException:
            raise FetchFailed("timeout", f"no answer within {timeout.read:g} s", hops) from None
        except httpx.ConnectError as error:
            kind = "DNS" if str(error).startswith("DNS:") else "connection"
            raise FetchFailed(kind, str(error).removeprefix("DNS: "), hops) from None
        except httpx.HTTPError as error:
            raise FetchFailed("connection", f"{type(error).__name__}: {error}", hops) from None


def retry_after(value: str | None) -> float | None:
    """Seconds to wait from a Retry-After header (seconds or an HTTP date), at most 5 minutes."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return min(float(value), 300.0)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return min(max((when - datetime.now(UTC)).total_seconds(), 0.0), 300.0)
