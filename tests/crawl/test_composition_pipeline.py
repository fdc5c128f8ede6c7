"""A composition exports to datatrove as one step: the exported pipeline runs its parts on each page of a crawl and
composes them as the app composes their stored extractions, so every page gets the text the app scores."""

from __future__ import annotations

import json

import pytest
from corpora import READABILITY, READABILITY_PAGES
from sqlalchemy import select
from test_crawl import documents, page_of, run_pipeline, write_warcs

from webapp.extractors.registry import build_registry
from webapp.models import Extraction, Page

pytest.importorskip("datatrove")

COMPOSITIONS = {
    "jt": ("--cascade", "justext,trafilatura"),
    "tr": ("--union", "trafilatura,resiliparse"),
    "by-site": ("--route", "site", "--table", "north.example=resiliparse", "--table", "*=justext"),
    "by-type": ("--route", "type", "--table", "article=resiliparse", "--table", "*=trafilatura"),
}


@pytest.mark.slow
@pytest.mark.corpus(READABILITY)
def test_the_exported_pipeline_composes_each_page_as_the_app_does(cli, session, tmp_path):
    folders = sorted(p for p in READABILITY_PAGES.iterdir() if (p / "source.html").is_file())[:16]
    pages = tmp_path / "pages"
    pages.mkdir()
    for folder in folders:
        (pages / f"{folder.name}.html").symlink_to(folder / "source.html")
    hosts = ["north.example", "south.example"]
    (pages / "index.json").write_text(json.dumps(
        {folder.name: f"https://{hosts[n % 2]}/{folder.name}" for n, folder in enumerate(folders)}))
    cli("import", str(pages))
    cli("extract", "--extractor", "trafilatura", "--extractor", "justext", "--extractor", "resiliparse")
    for name, args in COMPOSITIONS.items():
        cli("extractors", "compose", name, *args)
    crawl = [(p.id, p.url, p.raw) for p in session.scalars(select(Page).order_by(Page.id))]
    write_warcs(tmp_path / "warc", crawl, files=2)

    for name in COMPOSITIONS:
        session.expire_all()
        rows = {row.page_id: row for row in session.scalars(select(Extraction).where(Extraction.extractor == name))}
        assert len(rows) == len(crawl) == 16
        output = cli("export", "--format", "datatrove", "--extractor", name, "--challenger", "none",
                     "--out", str(tmp_path / name))
        assert f"composition {name}" in output
        config = json.loads((tmp_path / name / "pipeline.json").read_text())
        fingerprint = next(iter(rows.values())).fingerprint
        assert config["composition"]["fingerprint"] == fingerprint
        registry = build_registry()
        parts = config["composition"]["options"]["parts"]
        assert [(pin["name"], pin["fingerprint"]) for pin in config["extractors"]] == [
            (part, registry[part].fingerprint) for part in parts]
        run_pipeline(tmp_path / name, "--warc", str(tmp_path / "warc"), "--out", str(tmp_path / f"{name}-out"),
                     "--tasks", "2", "--workers", "2")
        docs = documents(tmp_path / f"{name}-out")
        assert sorted(page_of(doc_id) for doc_id in docs) == [page_id for page_id, _, _ in crawl]
        for doc_id, doc in docs.items():
            row = rows[page_of(doc_id)]
            meta = doc["metadata"]
            assert doc["text"] == row.text, f"{name} on page {row.page_id}: not the text the app scores"
            assert (meta["extractor"], meta["fingerprint"], meta["routed"]) == (name, fingerprint, "composition")
            assert (meta["composed_of"], meta["accepted"], meta["guard_reason"]) == (
                row.meta["composed_of"], row.accepted, row.guard_reason)
    routed = {row.page_id: row.meta["composed_of"] for row in
              session.scalars(select(Extraction).where(Extraction.extractor == "by-site"))}
    assert sorted(map(tuple, routed.values())) == sorted([("resiliparse",)] * 8 + [("justext",)] * 8)
