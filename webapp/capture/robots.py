"""robots.txt, as RFC 9309 says, read with protego (Scrapy's parser, which follows it): fetched once
per origin (scheme, host and port) through the same guarded client as the pages; a 2xx answer is parsed
(its first 500 KiB, as the RFC allows a crawler to limit it), a 4xx answer means no rules (everything
allowed), and a 5xx answer or a failed fetch means everything disallowed until it can be read. Redirects
are followed (up to five, by the fetcher). The rules of the group that matches the user agent apply, the
longest matching path wins, and Allow wins a tie. A refusal names the rule that refused."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from protego import Protego

MAX_ROBOTS_BYTES = 500 * 1024


@dataclass(frozen=True)
class Decision:
    allowed: bool
    reason: str
    """Why, in words: the rule that decided, or what happened to robots.txt."""
    robots_url: str

    def as_fact(self) -> dict[str, Any]:
        return {"allowed": self.allowed, "reason": self.reason, "robots_url": self.robots_url}


@dataclass
class Robots:
    """One origin's robots.txt, as fetched."""

    url: str
    status: int | None
    """The HTTP status of robots.txt; None when it could not be fetched at all."""
    text: str = ""
    error: str | None = None
    parsed: Protego | None = field(default=None, repr=False)

    def decide(self, url: str, agent: str) -> Decision:
        if self.status is None or self.status >= 500:
            why = self.error or f"HTTP {self.status}"
            return Decision(False, f"robots.txt unreachable ({why}): everything disallowed until it can be read",
                            self.url)
        if self.status >= 400 or self.parsed is None:
            return Decision(True, f"robots.txt unavailable (HTTP {self.status}): no rules", self.url)
        allowed = self.parsed.can_fetch(url, agent)
        return Decision(allowed, deciding_rule(self.parsed, url, agent, allowed), self.url)


def deciding_rule(parsed: Protego, url: str, agent: str, allowed: bool) -> str:
    """The rule that decided, as robots.txt writes it ("Disallow: /private" for user-agent "*")."""
    rule_set = parsed._get_matching_rule_set(agent)  # protego names no public way to ask
    if rule_set is None:
        return "no group of robots.txt applies to this user agent: allowed"
    target = urlsplit(url)
    path = urlunsplit(("", "", target.path or "/", target.query, ""))
    for rule in rule_set._rules:  # sorted longest first, Allow before Disallow on a tie
        if rule.value.match(path):
            word = "Allow" if rule.field == "allow" else "Disallow"
            return f"{word}: {rule.value._pattern} (user-agent: {rule_set.user_agent})"
    return f"no rule of the group for user-agent {rule_set.user_agent} matches: allowed" if allowed else "disallowed"


def robots_url(url: str) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme.lower(), parts.netloc.lower(), "/robots.txt", "", ""))


@dataclass
class RobotsBook:
    """robots.txt per origin, fetched on first need by `fetch(robots_url) -> Robots`."""

    fetch: Callable[[str], Robots]
    agent: str
    _known: dict[str, Robots] = field(default_factory=dict)

    def robots_of(self, url: str) -> Robots:
        key = robots_url(url)
        if key not in self._known:
            self._known[key] = self.fetch(key)
        return self._known[key]

    def decide(self, url: str) -> Decision:
        return self.robots_of(url).decide(url, self.agent)

    def crawl_delay(self, url: str) -> float | None:
        robots = self.robots_of(url)
        return robots.parsed.crawl_delay(self.agent) if robots.parsed is not None else None


def parsed_robots(url: str, status: int, body: bytes) -> Robots:
    text = body[:MAX_ROBOTS_BYTES].decode("utf-8", errors="replace")
    return Robots(url, status, text, parsed=Protego.parse(text) if 200 <= status < 300 else None)
