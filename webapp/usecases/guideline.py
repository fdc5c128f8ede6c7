"""Edit a guideline: an admin's new version of a page type's guideline (annotation/guideline_versions.py).

The rules: admins only (403; the route's role says so too, web/access.py); the type must be one of the
taxonomy in force (404); the text must not be empty or over TEXT_MAX characters (400, 413); the edit
must start from the version in force (409 otherwise: another admin saved meanwhile, and nothing is
stored, so the admin's text is shown back to be merged by hand); the new version is audited
("guideline.save" with the type, the version and the note)."""

from __future__ import annotations

from sqlalchemy.orm import Session

from ..accounts.audit_actions import Action
from ..accounts.roles import ADMIN
from ..annotation.guideline_versions import TEXT_MAX, StaleGuideline, save_version
from ..foundation.settings import Settings
from ..models import Guideline
from .outcome import Actor, Refused, needs

NOTE_MAX = 500


@needs(ADMIN, "Only admins edit the guidelines.")
def save_guideline(session: Session, settings: Settings, actor: Actor, page_type: str, text: str,
                   base_version: int | None, note: str = "") -> Guideline:
    """Store the admin's text as the type's new guideline version by the rules above; Refused (403, 404,
    400, 413, 409) when it is not taken. Never commits."""
    if page_type not in settings.taxonomy.page_types:
        raise Refused(404, f"There is no page type {page_type!r} in the taxonomy in force.")
    text = text.replace("\r\n", "\n").strip()
    if not text:
        raise Refused(400, f"The guideline of {page_type!r} is empty: write what is main content for this type.")
    if len(text) > TEXT_MAX:
        raise Refused(413, f"The guideline of {page_type!r} has {len(text)} characters, more than {TEXT_MAX}.")
    try:
        row = save_version(session, page_type, text + "\n", actor.name, base_version, note.strip()[:NOTE_MAX] or None)
    except StaleGuideline as error:
        raise Refused(409, f"Not saved: {error}.") from None
    actor.record(session, Action.GUIDELINE_SAVE, f"guideline {page_type}", {"version": row.version, "note": row.note})
    return row
