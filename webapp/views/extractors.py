"""The extractors page: every registered extractor and user-defined variant, with the forms that add and
remove variants (the same services as `goldtext extractors add` and `remove`)."""

from __future__ import annotations

from flask import Blueprint, flash, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from ..accounts.roles import ADMIN
from ..db import get_session
from ..extractors.options import settable
from ..extractors.variants import BadVariant, add_variant, remove_variant, with_variants
from ..web import figures
from .common import LOCAL_ACTOR, annotator, current_role, record

bp = Blueprint("extractors", __name__, url_prefix="/extractors")


def page(error: str | None = None, status: int = 200) -> tuple[str, int]:
    """The list and the add form, the form keeping what was sent with the error that stopped it."""
    session = get_session()
    registry = figures.registry()
    known = with_variants(session, registry)
    bases = {name: sorted(settable(extractor)) for name, extractor in registry.items()}
    html = render_template("extractors/index.html", extractors=known.values(), registered=set(registry),
                           bases={name: options for name, options in bases.items() if options},
                           error=error, sent=request.form, admin=current_role() == ADMIN)
    return html, status


@bp.get("")
def index() -> tuple[str, int]:
    return page()


@bp.post("/variants")
def add() -> Response | tuple[str, int]:
    pairs = [line.strip() for line in request.form.get("options", "").splitlines() if line.strip()]
    session = get_session()
    try:
        variant = add_variant(session, figures.registry(), request.form.get("name", "").strip(),
                              request.form.get("base", ""), pairs, created_by=annotator() or LOCAL_ACTOR)
    except BadVariant as error:
        session.rollback()
        return page(str(error), 400)
    record("variant.add", variant.name, {"base": request.form.get("base", ""), "options": pairs})
    session.commit()
    flash(f"Variant {variant.name} saved; the next extraction run computes it.")
    return redirect(url_for("extractors.index"))


@bp.post("/variants/<name>/remove")
def remove(name: str) -> Response | tuple[str, int]:
    session = get_session()
    try:
        remove_variant(session, name)
    except BadVariant as error:
        session.rollback()
        return page(str(error), 404)
    record("variant.remove", name)
    session.commit()
    flash(f"Variant {name} removed; its extractions are kept.")
    return redirect(url_for("extractors.index"))
