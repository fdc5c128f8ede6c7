"""Comment on a page or on one of its lines, and request changes of an annotator (the lead's console, the
annotate view's comments).

The rules (who reads what: annotation/comments.py):
- a comment's text is not empty and at most BODY_MAX characters, a quoted line at most LINE_MAX (400 otherwise);
- a lead (a reviewer or an admin) comments on any page, about the page or about one annotator's work;
- an annotator comments about their own work only (a reply to a request for changes) while the page is
  blind to them, and about the page or their own work once it is not (403 otherwise): they never write
  into a thread they may not read;
- a request for changes is a lead's (403), names an annotator and says what to change (400); it sends
  the annotator's finished annotation of a page not yet adjudicated back to draft (with overlap 1: the
  page's gold they saved last; 409 when there is neither), recorded as a revision by the lead, so that the
  page is back in the annotator's own queue with the comment; the page's scores are refreshed when its
  gold changed;
- each is audited; nothing commits.
"""

from __future__ import annotations

from sqlalchemy.orm import Session

from ..accounts.audit_actions import Action
from ..accounts.roles import ANNOTATOR, REVIEWER, at_least
from ..annotation.annotations import DRAFT, FINISHED, annotation_of, is_blind
from ..annotation.comments import BODY_MAX, CHANGES, COMMENT, LINE_MAX, blind_to
from ..annotation.gold import apply_revision
from ..foundation.settings import Settings
from ..models import PageComment
from ..results.store import gold_changed
from .outcome import Actor, Refused, needs
from .save import locked_page


def checked_text(body: str, line: str | None) -> tuple[str, str | None]:
    body, line = body.strip(), (line or "").strip() or None
    if not body:
        raise Refused(400, "The comment is empty: say what it is about.")
    if len(body) > BODY_MAX:
        raise Refused(400, f"The comment has {len(body):,} characters; at most {BODY_MAX:,} are kept.")
    if line is not None and len(line) > LINE_MAX:
        raise Refused(400, f"The quoted line has {len(line):,} characters; at most {LINE_MAX:,} are kept.")
    return body, line


@needs(ANNOTATOR, "Only a signed-in user comments.")
def add_comment(session: Session, settings: Settings, actor: Actor, page_id: int, body: str,
                line: str | None = None, about: str | None = None) -> PageComment:
    """Add the actor's comment to the page's thread (see the rules); Refused (400, 403, 404). Never commits."""
    page = locked_page(session, page_id)
    body, line = checked_text(body, line)
    about = (about or "").strip() or None
    if not at_least(actor.role, REVIEWER):
        if about not in (None, actor.name):
            raise Refused(403, "An annotator comments on the page or on their own work, not on another's.")
        if about is None and blind_to(session, page, actor.name, settings.overlap):
            raise Refused(403, f"Page {page_id} is not adjudicated yet: you may reply about your own work only.")
    comment = PageComment(page_id=page.id, author=actor.name, about=about, kind=COMMENT, line=line, body=body)
    session.add(comment)
    session.flush()
    actor.record(session, Action.COMMENT, f"page {page.id}", {"comment": comment.id, "about": about, "line": line})
    return comment


@needs(REVIEWER, "Only a lead (a reviewer or an admin) requests changes.")
def request_changes(session: Session, settings: Settings, actor: Actor, page_id: int, annotator: str,
                    body: str) -> PageComment:
    """Send the annotator's work on the page back to draft with the comment (see the rules); Refused
    (400, 403, 404, 409). Never commits."""
    page = locked_page(session, page_id)
    body, _ = checked_text(body, None)
    annotator = annotator.strip()
    own = annotation_of(session, page.id, annotator) if annotator else None
    if own is not None and (is_blind(page, settings.overlap) or blind_to(session, page, annotator, settings.overlap)):
        record = own
    elif settings.overlap == 1 and page.gold is not None and page.gold.author == annotator:
        record = page.gold
    else:
        raise Refused(409, f"{annotator or 'Nobody'} has no annotation of page {page.id} that is not adjudicated "
                           "yet: there is nothing to send back.")
    if record.status in FINISHED:
        apply_revision(session, record, author=actor.name, text=record.text, page_type=record.page_type,
                       status=DRAFT, snippets=record.snippets, client_save_id=None,
                       **({"note": f"Changes requested by {actor.name}."} if record is page.gold else {}))
        if record is page.gold:
            gold_changed(session, settings.eager, page.id, no_content=settings.taxonomy.no_content)
    comment = PageComment(page_id=page.id, author=actor.name, about=annotator, kind=CHANGES, body=body)
    session.add(comment)
    session.flush()
    actor.record(session, Action.CHANGES_REQUEST, f"page {page.id}", {"annotator": annotator, "comment": comment.id})
    return comment
