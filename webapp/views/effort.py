"""The Effort page: the active time and the actions per page, by annotator, page type and prefill source
(results/effort_figures.py); reviewers and admins see everyone's, an annotator their own. Its JSON twin is
/api/effort."""

from __future__ import annotations

from flask import Blueprint, render_template

from ..annotation.effort_record import ACTIONS
from ..results.effort_figures import GROUPINGS, effort_figures
from ..web.db import get_session
from ..web.effort_scope import effort_scope

bp = Blueprint("effort", __name__)


@bp.get("/effort")
def index() -> str:
    scope = effort_scope()
    return render_template("effort/index.html", figures=effort_figures(get_session(), scope), groupings=GROUPINGS,
                           actions=ACTIONS)
