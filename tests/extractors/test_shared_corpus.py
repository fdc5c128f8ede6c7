"""The shared real-page corpora: 130 Mozilla Readability test pages imported whole through the commands and
extracted by every built-in extractor that can run here, and a sample of WCXB's pages of every type (gzip)
through the runner by the extractors of the `extractors` extra and Readability.js, without a worker crash or
a timeout."""

from __future__ import annotations

import gzip
import json
from collections import Counter

import pytest
from corpora import CORPORA, READABILITY, READABILITY_PAGES
from sqlalchemy import func, select
from test_extractors import OPTIONAL_NAMES

from webapp.extractors.process_pool import Call, ExtractorPool
from webapp.extractors.registry import build_registry, runnable
from webapp.models import Gold
from webapp.scoring.wcxb_metric import counts as wcxb_counts
from webapp.web.db import sessions

FAILURES = ("worker crashed", "timeout after")  # the worker died or was killed: not the extractor's own error
WCXB = "wcxb-dev-sample"
WCXB_PER_TYPE = 4

pytestmark = pytest.mark.slow


@pytest.mark.corpus(READABILITY)
@pytest.mark.xdist_group("readability-extracted")
def test_the_readability_pages_import_and_extract_without_crashes(readability_extracted):
    assert "batch 1: 130 imported, 0 duplicate, 0 rejected" in readability_extracted.imported
    with sessions(readability_extracted.app)() as session:
        page_types = dict(session.execute(select(Gold.page_type, func.count()).group_by(Gold.page_type)).all())
    assert page_types == {"article": 122, "other": 8}

    names = [extractor.name for extractor in runnable(build_registry())]
    rows = readability_extracted.stored()
    assert len(rows) == 130 * len(names)
    assert {(page, name) for page, name, _ in rows} == {
        (page.name, name) for page in READABILITY_PAGES.iterdir() if page.is_dir() for name in names
    }
    errors = sorted(f"{name} on {page}: {error}" for page, name, error in rows if error)
    failures = [line for line in errors if line.split(": ", 1)[1].startswith(FAILURES)]
    assert failures == [], "crashes or timeouts:\n" + "\n".join(failures) + "\nall errors:\n" + "\n".join(errors)
    answered = Counter(name for _, name, error in rows if not error)
    optional = [name for name in names if name in OPTIONAL_NAMES]
    assert {name: answered[name] for name in optional} == {name: 130 for name in optional}


def wcxb_sample() -> list[tuple[str, str, str]]:
    """(file id, page type, HTML) of the first WCXB_PER_TYPE pages of each type of the WCXB sample."""
    files = json.loads((CORPORA / WCXB / "metadata.json").read_text())["files"]
    chosen: dict[str, list[str]] = {}
    for file_id, facts in sorted(files.items()):
        chosen.setdefault(facts["page_type"], []).append(file_id)
    return [
        (file_id, page_type, gzip.decompress((CORPORA / WCXB / "dev" / "html" / f"{file_id}.html.gz").read_bytes())
         .decode("utf-8", errors="replace"))
        for page_type, ids in sorted(chosen.items()) for file_id in ids[:WCXB_PER_TYPE]
    ]


@pytest.mark.corpus(WCXB)
def test_the_added_extractors_run_on_wcxb_pages_of_every_type_without_crashes():
    pages = wcxb_sample()
    assert len({page_type for _, page_type, _ in pages}) == 7 and len(pages) == 7 * WCXB_PER_TYPE
    extractors = [e for e in runnable(build_registry()) if e.name in OPTIONAL_NAMES]
    calls = (Call((file_id, e.name), e, html, None) for file_id, _, html in pages for e in extractors)
    with ExtractorPool(workers=2, timeout=60) as pool:
        results = list(pool.run(calls))
    assert len(results) == len(pages) * len(extractors)
    failures = sorted(f"{r.extractor_name} on {r.key[0]}: {r.error}"
                      for r in results if r.error and r.error.startswith(FAILURES))
    assert failures == []
    answered = Counter(r.extractor_name for r in results if not r.error)
    assert {e.name: answered[e.name] for e in extractors} == {e.name: len(pages) for e in extractors}


TOP_OF_THE_TABLES = ("rs-trafilatura", "go-trafilatura", "go-domdistiller")


@pytest.mark.corpus(WCXB)
@pytest.mark.parametrize("name", TOP_OF_THE_TABLES)
def test_the_top_of_the_published_tables_extract_wcxb_articles_better_than_the_whole_page(name):
    """On the sample's article pages each gives text on every page, and its WCXB word F1 beats the page's whole
    visible text: it removed boilerplate, not the article."""
    extractor = build_registry()[name]
    if not extractor.available:
        pytest.skip(extractor.unavailable_reason)
    files = json.loads((CORPORA / WCXB / "metadata.json").read_text())["files"]
    articles = [file_id for file_id, facts in sorted(files.items()) if facts["page_type"] == "article"][:8]
    whole_page = build_registry()["whole-page"]
    extracted, baseline = [], []
    for file_id in articles:
        html = gzip.decompress((CORPORA / WCXB / "dev" / "html" / f"{file_id}.html.gz").read_bytes()).decode()
        gold = json.loads((CORPORA / WCXB / "dev" / "ground-truth" / f"{file_id}.json").read_text())["ground_truth"]
        text = extractor(html, None).text
        assert text.strip(), f"{name} gave no text on WCXB page {file_id}"
        extracted.append(wcxb_counts(text, {"text": gold["main_content"]})["f1"])
        baseline.append(wcxb_counts(whole_page(html, None).text, {"text": gold["main_content"]})["f1"])
    assert sum(extracted) / len(extracted) > sum(baseline) / len(baseline) + 0.1
