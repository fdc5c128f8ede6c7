"""What several views share: the annotator in the session and the queue's filters in the query string."""

from __future__ import annotations

from collections.abc import Mapping

from flask import session

from ..annotation.queue import VERDICT_FILTERS, QueueFilter
from ..vocabulary import QUEUE_STATUSES

ANNOTATOR = "annotator"
FILTER_ARGS = ("site", "status", "kind", "batch", "annotator", "verdict", "q")


def annotator() -> str | None:
    """The annotator's name kept in the session (until accounts exist)."""
    return session.get(ANNOTATOR)


def _int_or_none(value: str | None) -> int | None:
    return int(value) if value and value.isdigit() else None


def queue_filter(args: Mapping[str, str]) -> QueueFilter:
    """The queue's filters from the query string; unknown values are ignored."""
    status = args.get("status")
    verdict = args.get("verdict")
    return QueueFilter(
        site_id=_int_or_none(args.get("site")),
        status=status if status in QUEUE_STATUSES else None,
        kind=args.get("kind") or None,
        batch_id=_int_or_none(args.get("batch")),
        annotator=args.get("annotator") or None,
        verdict=verdict if verdict in VERDICT_FILTERS else None,
        url_contains=args.get("q") or None,
    )


def filter_args(args: Mapping[str, str]) -> dict[str, str]:
    """The queue's filter arguments present in ``args``, to carry along in links."""
    return {name: args[name] for name in FILTER_ARGS if args.get(name)}
