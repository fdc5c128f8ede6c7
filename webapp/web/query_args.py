"""The query string read into the services' options: the page filter and bounded whole numbers
(400 with the argument's name when a value cannot be read)."""

from __future__ import annotations

from flask import abort, request
from werkzeug.datastructures import MultiDict

from ..annotation.page_filter import ANY_CHECK, VERDICTS, PageFilter
from ..foundation.vocabulary import QUEUE_STATUSES
from ..scoring.gold_checks import CHECKS
from .bad_input import ID_MAX

FILTER_ARGS = ("site", "status", "type", "batch", "author", "annotated", "verdict", "q", "check", "order")


def page_filter(args: MultiDict[str, str]) -> PageFilter:
    """The page filter of the query string (each of site, status, type, batch, author, annotated (an
    annotation's author) and check repeatable; verdict; q, a part of the URL). An unknown status, check
    or verdict is ignored; a batch that is not a whole number is refused (400)."""
    try:
        batches = tuple(int(b) for b in args.getlist("batch") if b)
    except ValueError:
        batches = (-1,)
    if not all(0 <= batch <= ID_MAX for batch in batches):
        abort(400, description=f"'batch' must be an import batch id (a whole number up to {ID_MAX}).")
    verdict = args.get("verdict")
    return PageFilter(
        sites=tuple(s for s in args.getlist("site") if s),
        page_types=tuple(k for k in args.getlist("type") if k),
        statuses=tuple(s for s in args.getlist("status") if s in QUEUE_STATUSES),
        batches=batches,
        authors=tuple(a for a in (args.getlist("author") + args.getlist("annotator")) if a),
        verdict=verdict if verdict in VERDICTS else None,
        url_contains=args.get("q") or None,
        checks=tuple(c for c in args.getlist("check") if c in CHECKS or c == ANY_CHECK),
        annotated_by=tuple(a for a in args.getlist("annotated") if a),
    )


def int_arg(name: str, default: int, low: int = 0, high: int | None = None) -> int:
    value = request.args.get(name)
    if value in (None, ""):
        return default
    try:
        number = int(value)
    except ValueError:
        abort(400, description=f"{name!r} must be a whole number.")
    if number < low or (high is not None and number > high):
        abort(400, description=f"{name!r} must be between {low} and {high}.")
    return number


def filter_args(args: MultiDict[str, str]) -> dict[str, str]:
    """The queue's filter arguments and its order present in ``args`` (one value each, as its form sets them), to
    carry along in links."""
    return {name: args[name] for name in FILTER_ARGS if args.get(name)}
