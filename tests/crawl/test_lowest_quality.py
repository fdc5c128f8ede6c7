"""rs-trafilatura's predicted quality in the crawl: a pipeline whose extractor or challenger is rs-trafilatura records
its prediction for each document, as `goldtext extract` stores it in the extraction's metadata, and
`goldtext import --datatrove … --lowest-quality` brings back the documents it predicted worst."""

from __future__ import annotations

import os

import pytest
from corpora import READABILITY, READABILITY_PAGES
from sqlalchemy import delete, select
from test_crawl import documents, page_of, run_pipeline, stored_pages, write_warcs

from webapp.crawl.sample import Candidate, sample
from webapp.extractors.registry import build_registry
from webapp.models import Extraction, ImportBatch, Page

pytest.importorskip("datatrove")

SLUGS = ("ars-1", "bbc-1", "cnn", "ehow-1", "lwn-1", "mozilla-1", "qq", "wikipedia")


def test_the_sample_takes_the_lowest_predicted_quality_first_and_those_without_one_last():
    pool = [Candidate(("0.jsonl.gz", n), "", None, quality) for n, quality in enumerate([0.9, None, 0.3, 0.6, 0.3])]
    assert [c.position[1] for c in sample(pool, 3, lowest_quality=True)] == [2, 3, 4]
    assert [c.position[1] for c in sample(pool, 5, lowest_quality=True)] == [0, 1, 2, 3, 4]  # in the output's order
    assert [c.position[1] for c in sample(pool[:2], 1, lowest_quality=True)] == [0]


def test_the_two_orders_of_the_sample_are_one_or_the_other(runner, tmp_path):
    result = runner.invoke(args=["import", "--datatrove", str(tmp_path), "--sample", "2", "--lowest-agreement",
                                 "--lowest-quality"])
    assert result.exit_code == 2 and "--lowest-agreement and --lowest-quality are two orders" in result.output
    result = runner.invoke(args=["import", str(tmp_path), "--lowest-quality"])
    assert result.exit_code == 2 and "--lowest-quality apply to --datatrove only" in result.output


@pytest.mark.slow
@pytest.mark.corpus(READABILITY)
def test_the_crawl_records_rs_trafilaturas_prediction_and_the_lowest_come_back(cli, session, tmp_path):
    rs = build_registry()["rs-trafilatura"]
    if not rs.available:
        if os.environ.get("CI") == "true":
            pytest.fail(f"rs-trafilatura must run in CI: {rs.unavailable_reason}", pytrace=False)
        pytest.skip(rs.unavailable_reason)
    corpus = tmp_path / "pages"
    corpus.mkdir()
    for slug in SLUGS:
        (corpus / slug).symlink_to(READABILITY_PAGES / slug)
    cli("import", str(corpus), "--format", "readability")
    pages = stored_pages(session)
    cli("extract", "--extractor", "trafilatura", "--extractor", "rs-trafilatura")
    predicted = dict(session.execute(select(Extraction.page_id, Extraction.meta["extraction_quality"].as_float())
                                     .where(Extraction.fingerprint == rs.fingerprint)).all())
    assert len(predicted) == len(SLUGS) and all(0 <= value <= 1 for value in predicted.values())
    cli("export", "--format", "datatrove", "--extractor", "trafilatura", "--challenger", "rs-trafilatura",
        "--keep-html-bytes", "5000000", "--out", str(tmp_path / "pipeline"))
    write_warcs(tmp_path / "warc", pages, files=1)
    run_pipeline(tmp_path / "pipeline", "--warc", str(tmp_path / "warc"), "--out", str(tmp_path / "out"))

    docs = documents(tmp_path / "out")
    quality = {doc_id: doc["metadata"]["extraction_quality"] for doc_id, doc in docs.items()}
    assert {page_of(doc_id): value for doc_id, value in quality.items()} == pytest.approx(predicted)

    session.execute(delete(Page))
    session.commit()
    cli("import", "--datatrove", str(tmp_path / "out"), "--sample", "3", "--lowest-quality")
    batch = session.scalars(select(ImportBatch).order_by(ImportBatch.id.desc())).first()
    assert batch.imported == 3 and batch.source.endswith("(sample 3, lowest predicted quality)")
    taken = {page.facts["layout"]["id"] for page in session.scalars(select(Page).where(Page.batch_id == batch.id))}
    left = [value for doc_id, value in quality.items() if doc_id not in taken]
    assert max(quality[doc_id] for doc_id in taken) <= min(left)
    assert all(page.facts["layout"]["extraction_quality"] == quality[page.facts["layout"]["id"]]
               for page in session.scalars(select(Page).where(Page.batch_id == batch.id)))
