"""The Agreement page: how much the annotators agree (text, type, snippets), overall and by site, type or
annotator, with the spread of the per-page text F1 (figures: scoring/agreement_maths.py)."""

from __future__ import annotations

from flask import Blueprint, render_template

from ..results.agreement_figures import annotated_pages
from ..scoring.agreement_maths import GROUPINGS, agreement, distributions
from ..web.app_settings import overlap
from ..web.charts import f1_boxes
from ..web.db import get_session
from ..web.leaderboard_query import AGREEMENT_QUERY
from ..web.request_input import query

bp = Blueprint("agreement", __name__)


@bp.get("/agreement")
def index() -> str:
    by = query(AGREEMENT_QUERY)["by"]
    pages = annotated_pages(get_session())
    return render_template("agreement/index.html", figures=agreement(pages, by), by=by, groupings=GROUPINGS,
                           chart=f1_boxes(distributions(pages, by)), overlap=overlap())
