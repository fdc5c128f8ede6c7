"""The shared real-page corpus through the commands: 130 Mozilla Readability test pages imported whole and
extracted by every built-in extractor without a worker crash or a timeout."""

from __future__ import annotations

import pytest
from corpora import READABILITY, READABILITY_PAGES
from sqlalchemy import func, select

from webapp.extractors.registry import build_registry
from webapp.models import Extraction, Gold, Page

FAILURES = ("worker crashed", "timeout after")  # the worker died or was killed: not the extractor's own error

pytestmark = [pytest.mark.slow, pytest.mark.corpus(READABILITY)]


def test_the_readability_pages_import_and_extract_without_crashes(runner, session):
    imported = runner.invoke(args=["import", str(READABILITY_PAGES)])
    assert imported.exit_code == 0, imported.output
    assert "batch 1: 130 imported, 0 duplicate, 0 rejected" in imported.output
    kinds = dict(session.execute(select(Gold.kind, func.count()).group_by(Gold.kind)).all())
    assert kinds == {"article": 122, "other": 8}
    session.rollback()

    extracted = runner.invoke(args=["extract"])
    assert extracted.exit_code == 0, extracted.output
    names = list(build_registry())
    rows = session.execute(
        select(Page.source_name, Extraction.extractor, Extraction.error).join(Extraction.page)
    ).all()
    assert len(rows) == 130 * len(names)
    assert {(page, name) for page, name, _ in rows} == {
        (page.name, name) for page in READABILITY_PAGES.iterdir() if page.is_dir() for name in names
    }
    errors = sorted(f"{name} on {page}: {error}" for page, name, error in rows if error)
    failures = [line for line in errors if line.split(": ", 1)[1].startswith(FAILURES)]
    assert failures == [], "crashes or timeouts:\n" + "\n".join(failures) + "\nall errors:\n" + "\n".join(errors)
