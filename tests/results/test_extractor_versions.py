"""Versions move: a figure is tied to the version of the extractor that made it (its fingerprint holds the version);
when an extractor is registered under a new version, the leaderboard marks the extractions (and their scores) made
by the old one, a composition of it moves with it, and `goldtext extract --outdated` re-runs exactly those."""

from __future__ import annotations

import json
import sys
from importlib.metadata import version

import pytest
from corpora import READABILITY, READABILITY_PAGES
from sqlalchemy import delete, select

from webapp import create_app
from webapp.extractors.registry import build_registry
from webapp.models import Extraction
from webapp.web.db import dispose

PLUGIN = """
from dataclasses import replace
from pathlib import Path

from webapp.extractors.with_trafilatura import TRAFILATURA

RELEASE = Path(__file__).with_name("release.txt").read_text().strip()
EXTRACTOR = replace(TRAFILATURA, name="traf-release", version=f"{TRAFILATURA.version}, {RELEASE}")
"""


def release(folder, plugin_dist, name: str) -> str:
    """Register trafilatura as `traf-release` under the release NAME (a new version of it); its fingerprint."""
    (folder / "release.txt").write_text(name)
    sys.modules.pop("goldtext_fake_plugin", None)
    plugin_dist(PLUGIN, "goldtext.extractors", ["traf-release = goldtext_fake_plugin:EXTRACTOR"])
    return build_registry()["traf-release"].fingerprint


@pytest.fixture
def restarted(app, session, tmp_path):
    """`goldtext ARGS` (which must succeed) and the test client of the app started again on the same database:
    the app builds its registry once, so a new version is seen after a restart, as after an upgrade."""
    made = []

    def start() -> tuple:
        instance = tmp_path / f"restart-{len(made)}"
        instance.mkdir()
        again = create_app({"TESTING": True, "INSTANCE_PATH": str(instance), "SECRET_KEY": "test-secret",
                            "DATABASE_URL": app.config["DATABASE_URL"]})
        made.append(again)
        runner = again.test_cli_runner()

        def cli(*args: str) -> str:
            session.rollback()
            result = runner.invoke(args=list(args))
            assert result.exit_code == 0, result.output + repr(result.exception)
            return result.output

        return cli, again.test_client()

    yield start
    for again in made:
        dispose(again)


def rows(session, name: str) -> dict[str, set[int]]:
    """Fingerprint -> pages of the extractions under this name."""
    session.expire_all()
    found: dict[str, set[int]] = {}
    for page_id, fingerprint in session.execute(select(Extraction.page_id, Extraction.fingerprint)
                                                .where(Extraction.extractor == name)):
        found.setdefault(fingerprint, set()).add(page_id)
    return found


@pytest.mark.slow
@pytest.mark.corpus(READABILITY)
def test_a_new_version_marks_the_old_extractions_and_extract_outdated_reruns_only_them(cli, session, plugin_dist,
                                                                                      restarted, tmp_path):
    first = release(tmp_path, plugin_dist, "release 1")
    assert first.split("|")[1].endswith(", release 1")  # the fingerprint holds the version
    pages = tmp_path / "readability"
    pages.mkdir()
    for folder in sorted(p for p in READABILITY_PAGES.iterdir() if p.is_dir())[:12]:
        (pages / folder.name).symlink_to(folder)
    cli("import", str(pages))
    cli("extract", "--extractor", "traf-release", "--extractor", "resiliparse")
    cli("extractors", "compose", "rt", "--cascade", "traf-release,resiliparse")
    never = sorted(rows(session, "traf-release")[first])[:3]  # three pages the old version never extracted
    session.execute(delete(Extraction).where(Extraction.extractor == "traf-release", Extraction.page_id.in_(never)))
    session.commit()
    old_rt = next(iter(rows(session, "rt")))
    board = json.loads(cli("score", "--bootstrap", "0", "--format", "json"))
    assert board["outdated"] == [] and board["extractors"]["traf-release"]["pages"] == 8  # of its 9 gold pages, one
    # is of a type without main content

    second = release(tmp_path, plugin_dist, "release 2")
    assert second != first
    cli, client = restarted()
    board = json.loads(cli("score", "--bootstrap", "0", "--format", "json"))
    assert "traf-release" in board["not_run"] and "traf-release" not in board["extractors"]
    marked = {(old["extractor"], old["fingerprint"]): old for old in board["outdated"]}
    assert set(marked) == {("traf-release", first), ("rt", old_rt)}
    old = marked["traf-release", first]
    assert (old["version"], old["current_version"], old["pages"], old["gold_pages"]) == (
        first.split("|")[1], second.split("|")[1], 9, 9)
    assert marked["rt", old_rt]["pages"] == 12  # derived before three of its part's extractions were deleted
    text = cli("score", "--bootstrap", "0")
    assert (f"outdated: traf-release has 9 extractions (9 gold pages) made by version {first.split('|')[1]!r}, "
            f"not the current {second.split('|')[1]!r}") in text
    page = client.get("/leaderboard").get_data(as_text=True)
    assert 'id="outdated"' in page and "goldtext extract --outdated" in page

    resiliparse = {row.id for row in session.scalars(select(Extraction).where(Extraction.extractor == "resiliparse"))}
    out = cli("extract", "--outdated")
    assert "18 extractions" in out  # traf-release on its 9 outdated pages, then rt derived on them
    now = rows(session, "traf-release")
    assert now[second] == now[first] and not now[second] & set(never)  # only the outdated pages were re-run
    assert {row.id for row in session.scalars(select(Extraction).where(Extraction.extractor == "resiliparse"))} == (
        resiliparse)
    derived = rows(session, "rt")
    assert [len(pages) for fp, pages in derived.items() if fp != old_rt] == [9]  # rt's new version, derived
    board = json.loads(cli("score", "--bootstrap", "0", "--format", "json"))
    assert board["extractors"]["traf-release"]["pages"] == 8
    # left: rt's old version on the three pages whose part has no extraction at all (nothing to re-run there)
    assert [(old["extractor"], old["pages"]) for old in board["outdated"]] == [("rt", 3)]
    assert "0 extractions" in cli("extract", "--outdated")


LIBRARIES = {"trafilatura": "trafilatura", "trafilatura-precision": "trafilatura", "trafilatura-recall": "trafilatura",
             "trafilatura-fast": "trafilatura", "readability": "readability-lxml", "justext": "jusText",
             "boilerpy3": "boilerpy3", "resiliparse": "resiliparse", "newspaper4k": "newspaper4k", "goose3": "goose3",
             "html-text": "html-text", "inscriptis": "inscriptis", "density": "lxml", "whole-page": "lxml",
             "site-rules": "trafilatura"}


@pytest.mark.parametrize(("name", "library"), sorted(LIBRARIES.items()))
def test_the_fingerprint_of_each_python_extractor_holds_its_librarys_installed_version(name, library):
    extractor = build_registry()[name]
    if not extractor.available:
        pytest.skip(extractor.unavailable_reason)
    assert f"{library} {version(library)}" in extractor.fingerprint.split("|")[1]
