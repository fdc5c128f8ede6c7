"""What several views share: the annotator in the session, the overlap, and the page filter in the query
string."""

from __future__ import annotations

from flask import current_app, session
from werkzeug.datastructures import MultiDict

ANNOTATOR = "annotator"
FILTER_ARGS = ("site", "status", "kind", "batch", "annotator", "verdict", "q")


def annotator() -> str | None:
    """The annotator's name kept in the session (until accounts exist)."""
    return session.get(ANNOTATOR)


def overlap() -> int:
    """How many annotators annotate each page independently (the OVERLAP setting, at least 1)."""
    return max(int(current_app.config["OVERLAP"]), 1)


def filter_args(args: MultiDict[str, str]) -> dict[str, str]:
    """The queue's filter arguments present in ``args`` (one value each, as its form sets them), to
    carry along in links."""
    return {name: args[name] for name in FILTER_ARGS if args.get(name)}
