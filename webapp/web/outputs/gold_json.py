"""A gold, an annotation and one of their revisions as every face shows them: `GET /api/pages/ID/gold`, the
409 of a stale save (`current`) and the page's history (docs/api.md "Reading and saving gold")."""

from __future__ import annotations

from typing import Any

from ...annotation.gold import Record, Revision
from ...annotation.provenance import summary


def text_output(record: Record | Revision) -> dict[str, Any]:
    """The fields a gold, an annotation and a revision share: the text, its type and status, who wrote it."""
    return {
        "version": record.version,
        "text": record.text,
        "markdown": record.markdown,
        "text_source": record.text_source,
        "type": record.page_type,
        "status": record.status,
        "author": record.author,
        "snippets": record.snippets,
        "metadata": record.article_metadata or {},  # annotation/article_metadata.py: absent field, not annotated
    }


def gold_output(gold: Record | None) -> dict[str, Any]:
    """A page's gold, or an annotator's own annotation (the same fields); version 0 and empty fields for
    none yet."""
    if gold is None:
        return {"version": 0, "text": "", "markdown": "", "text_source": None, "type": None, "status": None,
                "author": None, "updated_at": None, "snippets": None, "metadata": {}}
    return {**text_output(gold), "updated_at": gold.updated_at.isoformat()}


def revision_output(revision: Revision, applied: bool) -> dict[str, Any]:
    """A revision of the history: its text's fields, whether it was applied, where its text came from
    (a summary, and each line's origin) and the guideline in force."""
    return {**text_output(revision), "id": revision.id, "created_at": revision.created_at.isoformat(),
            "applied": applied, "provenance": summary(revision.provenance),
            "origins": (revision.provenance or {}).get("lines"), "guideline_version": revision.guideline_version}
