"""Restore: make an old revision of a page's gold its gold again, as a new revision. The rules are a
save's (usecases/save.py): the page is locked, an adjudicated page's gold changes in adjudication only
(423), the revision's Markdown, text and type are restored together and must be what a save may store
today (a type the settings no longer name, a Markdown over GOLD_MAX_BYTES: refused), the new revision
records the guideline version in force for its type now (annotation/guideline_versions.py), the page's
scores are refreshed, its checks asked to run again (jobs/follow_checks.py) and the restore is audited."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.orm import Session

from ..accounts.audit_actions import Action
from ..accounts.roles import ANNOTATOR
from ..annotation.gold import restore_revision
from ..annotation.gold_markdown import views_from
from ..annotation.guideline_versions import version_in_force
from ..foundation.settings import Settings
from ..models import GoldRevision, Job
from ..results.store import gold_changed
from .fields import checked_fields
from .follow_up_checks import follow_gold
from .outcome import Actor, Refused, needs
from .save import edit_refusal, locked_page


@dataclass(frozen=True)
class Restored:
    revision: GoldRevision  # the new revision
    check: Job | None  # the check job it queued (the face dispatches it after its commit)


@needs(ANNOTATOR, "Only a signed-in user restores gold.")
def restore(session: Session, settings: Settings, actor: Actor, page_id: int, revision_id: int) -> Restored:
    """Restore the revision of the page's gold; Refused (404, 423, 400, 413) when the rules do not allow
    it. Never commits."""
    page = locked_page(session, page_id)
    revision = session.get(GoldRevision, revision_id)
    if revision is None or page.gold is None or revision.gold_id != page.gold.id:
        raise Refused(404, f"Page {page_id}'s gold has no revision {revision_id}.")
    refusal = edit_refusal(session, settings, page, actor.name)
    if refusal is not None:
        raise Refused(423, refusal)
    checked_fields(settings, views=views_from(revision), page_type=revision.page_type, status=revision.status,
                   snippets=revision.snippets)
    restored = restore_revision(session, page, revision, actor.name, version_in_force(session, revision.page_type))
    gold_changed(session, settings.eager, page.id, no_content=settings.taxonomy.no_content)
    actor.record(session, Action.GOLD_RESTORE, f"page {page_id}",
                 {"revision": revision.id, "version": restored.version})
    return Restored(restored, follow_gold(session, settings))
