"""The guidelines: each page type's guideline (what is main content for that type), its versions, and the
admins' editor (usecases/guideline.py)."""

from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, url_for
from werkzeug.wrappers import Response

from ..accounts.roles import ADMIN
from ..annotation.guideline_versions import history as guideline_history
from ..annotation.guideline_versions import in_force, version_of
from ..usecases.guideline import NOTE_MAX, save_guideline
from ..usecases.outcome import Refused
from ..web.acting import actor, current_role
from ..web.app_settings import settings
from ..web.db import get_session
from ..web.markdown import render
from ..web.request_input import TEXT, Form, posted, query, whole

bp = Blueprint("guidelines", __name__, url_prefix="/guidelines")

VERSION_QUERY = Form({"version": whole()})
"""The guideline's version shown (none: the one in force)."""
GUIDELINE_FORM = Form({"base": whole(), "text": TEXT, "note": TEXT}, {"text": "", "note": ""})
"""A new version: the version it was edited from, its text and a note."""


def known_page_type(page_type: str) -> str:
    """The type's label; 404 for a type the taxonomy in force does not have."""
    labels = settings().taxonomy.labels
    if page_type not in labels:
        abort(404, description=f"There is no page type {page_type!r} in the taxonomy in force.")
    return labels[page_type]


@bp.get("")
def index() -> str:
    taxonomy = settings().taxonomy
    found = in_force(get_session(), list(taxonomy.page_types))
    return render_template("guidelines/index.html", labels=taxonomy.labels, found=found,
                           admin=current_role() == ADMIN)


@bp.get("/<page_type>")
def show(page_type: str) -> str:
    """The version in force, or with ``?version=N`` that version."""
    label = known_page_type(page_type)
    session = get_session()
    number = query(VERSION_QUERY)["version"]
    shown = version_of(session, page_type, number) if number is not None else in_force(session, [page_type])[page_type]
    if number is not None and shown is None:
        abort(404, description=f"The guideline of {page_type!r} has no version {number}.")
    current = in_force(session, [page_type])[page_type]
    return render_template("guidelines/show.html", page_type=page_type, label=label, shown=shown,
                           html=render(shown.text) if shown else None,
                           current=current.version if current else None, admin=current_role() == ADMIN)


@bp.get("/<page_type>/history")
def history(page_type: str) -> str:
    label = known_page_type(page_type)
    return render_template("guidelines/history.html", page_type=page_type, label=label,
                           versions=guideline_history(get_session(), page_type))


def editor(page_type: str, label: str, text: str, base: int | None, note: str = "", error: str | None = None,
           status: int = 200) -> tuple[str, int]:
    return render_template("guidelines/edit.html", page_type=page_type, label=label, text=text, base=base, note=note,
                           error=error, note_max=NOTE_MAX), status


@bp.get("/<page_type>/edit")
def edit(page_type: str) -> tuple[str, int]:
    label = known_page_type(page_type)
    current = in_force(get_session(), [page_type])[page_type]
    return editor(page_type, label, current.text if current else "", current.version if current else None)


@bp.post("/<page_type>")
def save(page_type: str) -> Response | tuple[str, int]:
    """A new version from the editor's form; a refusal shows the form again with the admin's text."""
    label = known_page_type(page_type)
    form = posted(GUIDELINE_FORM)
    base, text, note = form["base"], form["text"], form["note"]
    session = get_session()
    try:
        row = save_guideline(session, settings(), actor(), page_type, text, base, note)
    except Refused as error:
        session.rollback()
        return editor(page_type, label, text, base, note, error.reason, error.status)
    session.commit()
    flash(f"Guideline of {label}: version {row.version} saved. Revisions saved from now on record it.")
    return redirect(url_for("guidelines.show", page_type=page_type))
