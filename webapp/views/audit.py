"""The audit log for admins: filtered and read a page at a time, and exported as JSON lines or CSV."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from datetime import UTC, datetime

from flask import Blueprint, abort, render_template, request
from werkzeug.datastructures import MultiDict
from werkzeug.wrappers import Response

from ..accounts.audit_log import AuditFilter, as_dict, detail_text, events, rows
from ..exports.csv_scores import neutralise
from ..web.db import get_session

bp = Blueprint("audit", __name__, url_prefix="/audit")

PAGE_SIZE = 100
COLUMNS = ("id", "at", "actor", "action", "target", "detail", "address")


def when(text: str | None, name: str) -> datetime | None:
    """An ISO date or date-time (UTC unless it says otherwise), or 400 naming the argument."""
    if not text:
        return None
    try:
        value = datetime.fromisoformat(text)
    except ValueError:
        abort(400, description=f"{name!r} must be a date (2026-03-01) or a date and time (2026-03-01T09:30).")
    return value.astimezone(UTC) if value.tzinfo else value.replace(tzinfo=UTC)


def audit_filter(args: MultiDict[str, str]) -> AuditFilter:
    return AuditFilter(when(args.get("since"), "since"), when(args.get("until"), "until"),
                       args.get("actor") or None, args.get("action") or None)


@bp.get("")
def index() -> str:
    wanted = audit_filter(request.args)
    before = request.args.get("before", type=int)
    found = events(get_session(), wanted, before, PAGE_SIZE + 1)
    shown = found[:PAGE_SIZE]
    older = shown[-1].id if len(found) > PAGE_SIZE else None
    args = {k: v for k, v in request.args.items() if k in ("since", "until", "actor", "action") and v}
    return render_template("audit/index.html", events=[as_dict(e) for e in shown], older=older, args=args,
                           detail_text=detail_text)


@bp.get("/export")
def export() -> Response:
    """Every matching event, oldest first: ``format=json`` (JSON lines) or ``format=csv`` (formula-like
    cells neutralised)."""
    fmt = request.args.get("format", "json")
    if fmt not in ("json", "csv"):
        abort(400, description="format is json or csv.")
    found = list(rows(get_session(), audit_filter(request.args)))
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
