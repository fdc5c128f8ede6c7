"""The datatrove step that runs Goldtext's extraction: any registered extractor, variant or site-rule set by
name, with the options, fingerprints, timeouts, memory cap and crash isolation of `goldtext extract`.

It is a datatrove extractor (a BaseExtractor) whose calls go through Goldtext's own runner
(webapp/extractors/process_pool.py): killable worker processes with a hard timeout and a memory cap. A page whose
call hangs, crashes or raises is not lost: it is written with an empty text and its error in the metadata,
and counted in datatrove's counters as `timeout`, `broken_process` or `clean_error`, as datatrove's own
extractors count them. Before the first page, the pinned fingerprints are checked against the installed
libraries (webapp/crawl/pins.py).

Each document's metadata: `url`, `extractor`, `fingerprint`, `page_type` (read from the page's facts),
`accepted` and `guard_reason` (the accept guard), `routed` ("extractor", "type", "fallback" or "composition":
a composition's parts run and composed as the app composes their stored extractions, `extractor` and `fingerprint`
then the composition's, `composed_of` the parts it read),
`duration_ms`, and when they apply `error`, `incomplete`, the challenger's `challenger`,
`challenger_fingerprint`, `challenger_error` and `agreement` (token F1 of the two texts), `extraction_quality`
(rs-trafilatura's prediction of its own extraction's quality, where it is the extractor or the challenger), and
the kept page (`html_base64`, `charset`) or why it was not kept (`html_omitted`).
"""

from __future__ import annotations

import base64
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from datatrove.data import Document, DocumentsPipeline
from datatrove.pipeline.extractors.base import BaseExtractor
from datatrove.utils.logging import logger
from datatrove.utils.typeshelper import StatHints

from ..corpus.site_names import UNKNOWN_SITE, host_of
from ..extractors.base import Extractor
from ..extractors.composing import COMPOSED_OF, ROUTE, PartOutput
from ..extractors.compositions import Composition, compose
from ..extractors.guard import judge
from ..extractors.process_pool import Call, ExtractorPool, Result
from ..extractors.with_rust import QUALITY
from ..scoring.agreement_maths import text_f1
from ..scoring.markdown_text import markdown_of_text
from .core_share import task_calls
from .output import STEP_NAME
from .pins import build_pinned
from .plan import BY_TYPE, Plan, Route
from .routing import route_key
from .warc import CHARSET, RAW

TIMEOUT_PREFIX = "timeout after"
CRASH_PREFIX = "worker crashed"
COMPOSED = "composition"


def error_counter(error: str) -> str:
    """datatrove's counter of a failed call, as its own extractors name them."""
    if error.startswith(TIMEOUT_PREFIX):
        return "timeout"
    if error.startswith(CRASH_PREFIX):
        return "broken_process"
    return "clean_error"


def predicted_quality(results: list[Result]) -> float | None:
    """The first predicted quality of an extraction among the results that answered (rs-trafilatura's), or None."""
    for result in results:
        value = result.metadata.get(QUALITY) if not result.error else None
        if isinstance(value, (int, float)):
            return float(value)
    return None


@dataclass
class Pending:
    """A document whose calls are in flight, and the results already back."""

    doc: Document
    page_type: str
    route: Route
    expected: int
    results: dict[str, Result] = field(default_factory=dict)


class GoldtextExtractor(BaseExtractor):
    """Run the configured Goldtext extraction on each document's HTML (`doc.text`), replacing it by the text.

    Args:
        config: the pipeline's configuration (pipeline.json, as `goldtext export --format datatrove` writes it)
        allow_version_drift: run even when the installed libraries give other fingerprints (warns, naming each)
        workers: extractor processes of each task (1: the task's cores are the executor's to share)
        keep_html_bytes: keep each page's raw bytes up to this size in the metadata (None: the configuration's)
    """

    name = STEP_NAME  # its libraries (pebble among them) are Goldtext's own dependencies

    def __init__(
        self, config: Mapping[str, Any], allow_version_drift: bool = False, workers: int = 1,
        keep_html_bytes: int | None = None,
    ) -> None:
        super().__init__(timeout=float(config["timeout"]))
        self.config = dict(config)
        self.allow_version_drift = allow_version_drift
        self.workers = workers
        self.keep_html_bytes = keep_html_bytes
        self._bare: dict[str, Extractor] | None = None

    def plan(self) -> Plan:
        return Plan.from_config(self.config)

    def extract(self, text: str) -> str:
        """The configured extractor's (or composition's) text for one page, called here without a worker process
        (the bare call)."""
        plan = self.plan()
        if self._bare is None:
            self._bare, _ = build_pinned(plan.pins, self.allow_version_drift)
        if plan.composition is None:
            return self._bare[plan.extractor](text, None).text
        results = {}
        for name in plan.composition.parts:
            done = self._bare[name](text, None)
            results[name] = Result(None, name, self._bare[name].fingerprint, done.text, done.metadata, 0.0, None, False,
                                   done.markdown)
        return self.composed(plan, plan.composition, results, Document(text=text, id="")).text

    def run(self, data: DocumentsPipeline, rank: int = 0, world_size: int = 1) -> DocumentsPipeline:
        plan = self.plan()
        extractors, drift = build_pinned(plan.pins, self.allow_version_drift)
        for difference in drift:
            logger.warning(f"version drift: {difference}")
        keep = plan.keep_html_bytes if self.keep_html_bytes is None else self.keep_html_bytes
        held: dict[int, Pending] = {}

        def calls() -> Iterator[Call]:
            for number, doc in enumerate(data):
                self.stat_update(StatHints.total)
                page_type = plan.type_of(doc.text)
                route = plan.route(page_type)
                names = plan.runs(route)
                held[number] = Pending(doc, page_type, route, len(names))
                url = doc.metadata.get("url")
                for name in names:
                    yield Call((number, name), extractors[name], doc.text, url)

        started = time.monotonic()
        with task_calls(self.workers) as (processes, at_once), \
                ExtractorPool(processes, plan.timeout, plan.memory_mb, warm_first=at_once is not None) as pool:
            for result in pool.run(calls(), at_once):
                number, name = result.key
                pending = held[number]
                pending.results[name] = result
                if len(pending.results) == pending.expected:
                    del held[number]
                    yield self.finish(pending, plan, keep)
        self.stat_update("seconds", value=time.monotonic() - started, unit="task")

    def finish(self, pending: Pending, plan: Plan, keep: int) -> Document:
        """The document with its text and metadata, its counters updated."""
        doc, results, route = pending.doc, pending.results, pending.route
        html_length = len(doc.text)
        if plan.composition is not None:
            chosen = self.composed(plan, plan.composition, results, doc)
            verdict = judge("" if chosen.error else chosen.text, html_length, plan.guard)
            routed = COMPOSED
        else:
            chosen = results[route.extractor]
            verdict = judge("" if chosen.error else chosen.text, html_length, plan.guard)
            routed = BY_TYPE if plan.mode == BY_TYPE else "extractor"
            if route.fallback and not (verdict.accepted and not chosen.error):
                chosen = results[route.fallback]
                verdict = judge("" if chosen.error else chosen.text, html_length, plan.guard)
                routed = "fallback"
        raw = doc.metadata.pop(RAW, None)
        charset = doc.metadata.pop(CHARSET, None)
        meta = doc.metadata
        meta.update(extractor=chosen.extractor_name, fingerprint=chosen.fingerprint, page_type=pending.page_type,
                    routed=routed, accepted=verdict.accepted and not chosen.error,
                    guard_reason="error" if chosen.error else verdict.reason,
                    duration_ms=round(chosen.duration_ms, 3))
        if plan.composition is not None:
            meta[COMPOSED_OF] = chosen.metadata[COMPOSED_OF]
        if chosen.incomplete:
            meta["incomplete"] = True
        if chosen.error:
            meta["error"] = chosen.error
            self.stat_update(error_counter(chosen.error))
        else:
            self.stat_update("extracted")
        if plan.challenger:
            self.challenge(meta, chosen, results[plan.challenger])
        quality = predicted_quality([chosen, *([results[plan.challenger]] if plan.challenger else [])])
        if quality is not None:
            meta[QUALITY] = quality
        if keep:
            self.keep_page(meta, raw if raw is not None else doc.text.encode("utf-8"),
                           charset if raw is not None else "utf-8", keep)
        doc.text = chosen.text
        self.stat_update(StatHints.forwarded)
        if doc.text:
            self.update_doc_stats(doc)
        return doc

    def composed(self, plan: Plan, composition: Composition, results: Mapping[str, Result], doc: Document) -> Result:
        """The composition's output from its parts' results, as the app derives it from their stored extractions
        (steps/composed_extractions.py): each part judged by the guard as `goldtext extract` judges it."""
        html = doc.text
        outputs = {}
        for name in composition.parts:
            result = results[name]
            verdict = judge("" if result.error else result.text, len(html), plan.guard)
            outputs[name] = PartOutput(
                name, result.text, result.markdown if result.markdown is not None else markdown_of_text(result.text),
                verdict.accepted and not result.error, result.error, result.duration_ms, result.incomplete,
                dict(result.metadata))
        key = (route_key(composition.by, composition.fact_table, html, host_of(doc.metadata.get("url")) or UNKNOWN_SITE)
               if composition.kind == ROUTE else "")
        done = compose(composition, outputs, html, key)
        return Result(None, composition.name, plan.composition_fingerprint or "", done.text, dict(done.metadata),
                      done.duration_ms, done.error, done.incomplete, done.markdown)

    def challenge(self, meta: dict[str, Any], chosen: Result, challenger: Result) -> None:
        meta["challenger"] = challenger.extractor_name
        meta["challenger_fingerprint"] = challenger.fingerprint
        if challenger.error:
            meta["challenger_error"] = challenger.error
        if chosen.error or challenger.error:
            meta["agreement"] = None
        else:
            meta["agreement"] = 1.0 if challenger is chosen else round(text_f1(chosen.text, challenger.text), 6)

    def keep_page(self, meta: dict[str, Any], raw: bytes, charset: str | None, cap: int) -> None:
        if len(raw) > cap:
            meta["html_omitted"] = f"{len(raw):,} bytes, over the cap of {cap:,}"
            return
        meta["html_base64"] = base64.b64encode(raw).decode("ascii")
        meta["charset"] = charset
