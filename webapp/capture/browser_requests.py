"""The requests Chromium makes while it renders a captured page, answered by the capture's guarded HTTP
client: the same address rules as the fetcher (the scheme and port of the URL; every address after DNS
resolution and again at connect time, in guarded_backend.py), the same user agent, a timeout per request
and the rendering's deadline, and the size limit of a response. A redirect is answered as it came (the
browser follows it with a new request, answered here in turn). A refused request is a `Refusal` with the
reason, listed in the rendering's facts."""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import httpx

from .addresses import Blocked
from .fetcher import Fetcher

DROPPED_REQUEST_HEADERS = frozenset({"host", "content-length", "accept-encoding", "connection"})
DROPPED_RESPONSE_HEADERS = frozenset({"content-encoding", "content-length", "transfer-encoding", "connection"})
"""The body is handed to the browser decoded and whole."""


@dataclass(frozen=True)
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes


@dataclass(frozen=True)
class Refusal:
    url: str
    reason: str

    def as_fact(self) -> dict[str, str]:
        return {"url": self.url[:500], "reason": self.reason}


@dataclass
class BrowserRequests:
    fetcher: Fetcher

    def answer(self, method: str, url: str, headers: Mapping[str, str], body: bytes | None,
               deadline: float) -> Answer | Refusal:
        try:
            self.fetcher.rules.check_url(url)
        except Blocked as error:
            return Refusal(url, f"blocked address: {error}")
        left = deadline - time.monotonic()
        if left <= 0:
            return Refusal(url, "timeout: the rendering's time limit has passed")
        sent = {k: v for k, v in headers.items() if k.lower() not in DROPPED_REQUEST_HEADERS}
        sent["user-agent"] = self.fetcher.limits.agent
        limit = self.fetcher.limits.max_bytes
        try:
            with self.fetcher.client.stream(method, url, headers=sent, content=body,
                                            timeout=httpx.Timeout(min(self.fetcher.limits.timeout, left))) as response:
                kept = bytearray()
                for chunk in response.iter_bytes():
                    kept += chunk
                    if len(kept) > limit:
                        return Refusal(url, f"too large: more than {limit:,} bytes")
                answered: dict[str, Any] = {}
                for name, value in response.headers.multi_items():
                    if name.lower() not in DROPPED_RESPONSE_HEADERS:
                        answered[name] = f"{answered[name]}\n{value}" if name in answered else value
                return Answer(response.status_code, answered, bytes(kept))
        except Blocked as error:
            return Refusal(url, f"blocked address: {error}")
        except httpx.TimeoutException:
            return Refusal(url, "timeout")
        except httpx.HTTPError as error:
            return Refusal(url, f"connection: {str(error).removeprefix('DNS: ')}")
