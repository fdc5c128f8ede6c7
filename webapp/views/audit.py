"""The audit log for admins: filtered and read a page at a time, and exported as JSON lines or CSV."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from datetime import UTC, datetime

from flask import Blueprint, abort, render_template
from werkzeug.wrappers import Response

from ..accounts.audit_log import AuditFilter, as_dict, detail_text, events, rows
from ..exports.csv_scores import neutralise
from ..web.db import get_session
from ..web.request_input import TEXT, Form, carried, one_of, query, whole

bp = Blueprint("audit", __name__, url_prefix="/audit")

PAGE_SIZE = 100
COLUMNS = ("id", "at", "actor", "action", "target", "detail", "address")
FILTERS = ("since", "until", "actor", "action")
AUDIT_QUERY = Form({**{name: TEXT for name in FILTERS}, "before": whole(), "format": one_of("json", "csv")},
                   {"format": "json"})
"""The events shown: since and until (ISO dates or date-times), by whom, which action; where a page starts
(``before``: an event's id) and the export's format."""


def when(text: str | None, name: str) -> datetime | None:
    """An ISO date or date-time (UTC unless it says otherwise), or 400 naming the argument."""
    if not text:
        return None
    try:
        value = datetime.fromisoformat(text)
    except ValueError:
        abort(400, description=f"{name!r} must be a date (2026-03-01) or a date and time (2026-03-01T09:30).")
    return value.astimezone(UTC) if value.tzinfo else value.replace(tzinfo=UTC)


def audit_filter() -> AuditFilter:
    """The events the query string asks for: since, until, by whom, which action."""
    args = query(AUDIT_QUERY)
    return AuditFilter(when(args["since"], "since"), when(args["until"], "until"), args["actor"], args["action"])


@bp.get("")
def index() -> str:
    wanted = audit_filter()
    before = query(AUDIT_QUERY)["before"]
    found = events(get_session(), wanted, before, PAGE_SIZE + 1)
    shown = found[:PAGE_SIZE]
    older = shown[-1].id if len(found) > PAGE_SIZE else None
    args = {k: v for k, v in carried().items() if k in FILTERS and v}
    return render_template("audit/index.html", events=[as_dict(e) for e in shown], older=older, args=args,
                           detail_text=detail_text)


@bp.get("/export")
def export() -> Response:
    """Every matching event, oldest first: ``format=json`` (JSON lines) or ``format=csv`` (formula-like
    cells neutralised)."""
    fmt = query(AUDIT_QUERY)["format"]
    found = list(rows(get_session(), audit_filter()))
    body = json_lines(found) if fmt == "json" else csv_text(found)
    response = Response(body, mimetype="application/x-ndjson" if fmt == "json" else "text/csv")
    response.headers["Content-Disposition"] = f'attachment; filename="audit.{"jsonl" if fmt == "json" else "csv"}"'
    response.headers["Cache-Control"] = "no-store"
    return response


def json_lines(found: list[dict]) -> Iterator[str]:
    for row in found:
        yield json.dumps(row, ensure_ascii=False) + "\n"


def csv_text(found: list[dict]) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(COLUMNS)
    for row in found:
        writer.writerow([neutralise(detail_text(row[c]) if c == "detail" else row[c]) for c in COLUMNS])
    return out.getvalue()
