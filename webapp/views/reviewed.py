"""The annotator's reviewed list: the adjudicated pages they annotated, the gold against their own text,
and the reviewer's note."""

from __future__ import annotations

from flask import Blueprint, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from ..annotation.review import reviewed as reviewed_pages
from ..web.acting import annotator
from ..web.db import get_session

bp = Blueprint("reviewed", __name__)


@bp.get("/reviewed")
def index() -> Response | str:
    name = annotator()
    if name is None:
        return redirect(url_for("annotate.name", next=request.full_path))
    rows = reviewed_pages(get_session(), name)
    return render_template("reviewed/index.html", rows=rows, name=name)
