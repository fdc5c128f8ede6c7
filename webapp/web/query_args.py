"""The page filter of the queue, the figures and the lead's console, declared once (`PAGE_FILTER`, read by
web/request_input.py): read from a query string or a form into the services' `PageFilter`, and carried along
in links."""

from __future__ import annotations

from typing import Any

from ..annotation.page_filter import ANY_CHECK, VERDICTS, PageFilter
from ..foundation.vocabulary import QUEUE_STATUSES
from ..scoring.gold_checks import CHECKS
from .bad_input import ID_MAX
from .request_input import TEXT, TEXTS, Form, carried, query

FILTER_ARGS = ("site", "status", "type", "batch", "author", "annotated", "verdict", "q", "check", "order")

PAGE_FILTER = Form({
    "site": TEXTS, "type": TEXTS, "status": TEXTS, "author": TEXTS, "annotator": TEXTS, "annotated": TEXTS,
    "check": TEXTS, "verdict": TEXT, "q": TEXT,
    "batch": {"type": "array", "items": {"type": "integer", "minimum": 0, "maximum": ID_MAX},
              "description": f"an import batch id (a whole number up to {ID_MAX})"},
})
"""Each of site, status, type, batch, author, annotated (an annotation's author) and check repeatable; verdict;
q, a part of the URL; `annotator`: the old name of `author`."""


def page_filter(values: dict[str, Any]) -> PageFilter:
    """The page filter of `PAGE_FILTER`'s values. An unknown status, check or verdict is ignored."""
    verdict = values["verdict"]
    return PageFilter(
        sites=tuple(values["site"]),
        page_types=tuple(values["type"]),
        statuses=tuple(s for s in values["status"] if s in QUEUE_STATUSES),
        batches=tuple(values["batch"]),
        authors=tuple(values["author"] + values["annotator"]),
        verdict=verdict if verdict in VERDICTS else None,
        url_contains=values["q"],
        checks=tuple(c for c in values["check"] if c in CHECKS or c == ANY_CHECK),
        annotated_by=tuple(values["annotated"]),
    )


def queried_filter() -> PageFilter:
    """The page filter of the query string."""
    return page_filter(query(PAGE_FILTER))


def filter_args() -> dict[str, str]:
    """The queue's filter arguments and its order present in the query string (one value each, as its form sets
    them), to carry along in links."""
    args = carried()
    return {name: args[name] for name in FILTER_ARGS if args.get(name)}
