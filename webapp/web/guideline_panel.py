"""The guideline panel of the annotate and adjudication views: every type's guideline in force, rendered,
so that changing the page type shows that type's guideline at once (static/js/guideline.js)."""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session

from ..annotation.guideline_versions import in_force
from ..foundation.vocabulary import Taxonomy
from .markdown import render


def guideline_panel(session: Session, taxonomy: Taxonomy) -> list[dict[str, Any]]:
    """One entry per type of the taxonomy, in menu order: type, label, version (None: no guideline yet)
    and html (the rendered guideline; empty without one)."""
    found = in_force(session, list(taxonomy.page_types))
    return [{"type": page_type, "label": label, "version": version.version if version else None,
             "html": render(version.text) if version else ""}
            for page_type, label in taxonomy.labels.items() for version in [found[page_type]]]
