"""The configuration of an exported pipeline, as the step reads it: which extractor (or composition of
extractors) runs on a page, which one challenges it, and the settings of the calls. It is plain JSON
(pipeline.json), written by `choice`."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..extractors.compositions import Composition
from ..extractors.guard import GuardThresholds
from .pins import Pin
from .routing import DEFAULT_TYPE, keys_of_html, page_type

FORMAT = "goldtext-datatrove-pipeline 1"
BY_EXTRACTOR = "extractor"
BY_TYPE = "type"
EXECUTORS = ("local", "slurm", "ray")
"""Where an exported pipeline's tasks run (datatrove's executors); pipeline.json's `executor` is the default."""


@dataclass(frozen=True)
class Route:
    """The extractor chosen for a page type, the one run when the guard rejects its text, and why."""

    extractor: str
    fallback: str | None
    why: str


@dataclass(frozen=True)
class Plan:
    mode: str
    extractor: str  # the extractor of every page (BY_EXTRACTOR), or of the types without a route of their own
    pins: tuple[Pin, ...]
    challenger: str | None = None
    routes: Mapping[str, Route] = field(default_factory=dict)
    fact_table: Mapping[str, Mapping[str, int]] = field(default_factory=dict)
    default_type: str = DEFAULT_TYPE
    timeout: float = 60.0
    memory_mb: int = 2048
    guard: GuardThresholds = GuardThresholds()
    keep_html_bytes: int = 0
    composition: Composition | None = None
    composition_fingerprint: str | None = None

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> Plan:
        if config.get("format") != FORMAT:
            raise ValueError(f"not a Goldtext pipeline configuration (format {config.get('format')!r}, "
                             f"expected {FORMAT!r})")
        return cls(
            mode=config["mode"], extractor=config["extractor"],
            pins=tuple(Pin.from_dict(pin) for pin in config["extractors"]),
            challenger=config.get("challenger"),
            routes={page_type: Route(**route) for page_type, route in config.get("routes", {}).items()},
            fact_table=config.get("fact_table", {}), default_type=config.get("default_type", DEFAULT_TYPE),
            timeout=float(config["timeout"]), memory_mb=int(config["memory_mb"]),
            guard=GuardThresholds(**config["guard"]), keep_html_bytes=int(config.get("keep_html_bytes", 0)),
            composition=(Composition.from_options(config["composition"]["name"], config["composition"]["options"])
                         if config.get("composition") else None),
            composition_fingerprint=config["composition"]["fingerprint"] if config.get("composition") else None,
        )

    def type_of(self, html: str) -> str:
        """The page's type from its facts; without a fact table every page is of the default type, and its HTML
        is not parsed for facts (a parse costs about 4 ms a page, a twentieth of trafilatura's call)."""
        if not self.fact_table:
            return self.default_type
        return page_type(keys_of_html(html), self.fact_table, self.default_type)

    def runs(self, route: Route) -> list[str]:
        """The extractors run on a page of this route: a composition's parts, else its extractor and fallback; then
        the challenger."""
        main = list(self.composition.parts) if self.composition else [route.extractor, route.fallback]
        return list(dict.fromkeys(name for name in (*main, self.challenger) if name))

    def route(self, page_type: str) -> Route:
        """The route of a page type: its own (BY_TYPE), else the plan's extractor with no fallback."""
        if self.mode == BY_TYPE and page_type in self.routes:
            return self.routes[page_type]
        return Route(self.extractor, None, "the configured extractor")
