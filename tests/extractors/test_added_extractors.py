"""The extractors added beside readability-js and the Go program: Defuddle through Node.js, dom-smoothie and
rs-trafilatura 0.2.2 through one Rust program, magic-html in its own Python 3.12. Each is pinned, says what is
missing until its install step is done, extracts real pages' articles with the real program, and its program
answers the content's Markdown too where the library writes it. Where a program is not built the tests of what it
extracts are skipped, saying so; in CI (CI=true) they fail instead, since CI builds every program."""

from __future__ import annotations

import gzip
import json
import os
import shutil
import sys

import pytest
from corpora import CORPORA, READABILITY, READABILITY_PAGES, WCXB
from test_extractors import ARTICLE, ARTICLE_URL

from webapp.corpus.visible_text import block_text, parse_html
from webapp.extractors import with_defuddle, with_magic_html, with_rust
from webapp.extractors.base import Extractor
from webapp.extractors.helper_process import HelperProcess
from webapp.extractors.kept_markdown import MARKDOWN_VERSION
from webapp.extractors.registry import build_registry
from webapp.scoring.wcxb_metric import counts

ADDED = ("defuddle", "dom-smoothie", "rs-trafilatura", "magic-html")
ARTICLES = ("ars-1", "bbc-1", "guardian-1", "lwn-1", "medium-1", "nytimes-1", "wikipedia", "wordpress")
"""A few of Readability's test pages: news, a blog, a wiki, a mailing-list article."""


def runnable(name: str) -> Extractor:
    """The registered extractor; skipped where its program is missing, saying why, but failed in CI."""
    extractor = build_registry()[name]
    if not extractor.available:
        if os.environ.get("CI") == "true":
            pytest.fail(f"{name} must run in CI: {extractor.unavailable_reason}", pytrace=False)
        pytest.skip(extractor.unavailable_reason)
    return extractor


# --- pinned, and unavailable with the reason until installed -------------------------------------------------


def test_each_is_pinned_where_its_install_step_reads_it():
    assert with_rust.crate_versions() == {"dom_smoothie": "0.19.0", "rs-trafilatura": "0.2.2"}
    lock = json.loads((with_defuddle.FOLDER / "package-lock.json").read_text())["packages"]
    assert lock["node_modules/defuddle"]["version"] == "0.19.4"
    assert lock["node_modules/linkedom"]["version"] == "0.18.15"
    requirements = (with_magic_html.FOLDER / "requirements.txt").read_text().splitlines()
    assert "magic-html==0.1.8" in requirements
    assert all("==" in line for line in requirements if line and not line.startswith("#"))


def test_the_rust_extractors_say_whether_cargo_or_the_built_program_is_missing(tmp_path):
    version, reason = with_rust.status(None, tmp_path)
    assert version == "unavailable"
    assert reason.startswith("Rust's cargo is not installed (no `cargo` on the PATH): install Rust 1.85 or later")
    assert reason.endswith(f"build the program: {with_rust.BUILD_HINT}")
    assert with_rust.status("/usr/bin/cargo", tmp_path) == ("unavailable",
                                                            f"the Rust program is not built: {with_rust.BUILD_HINT}")
    shutil.copy(with_rust.FOLDER / "Cargo.lock", tmp_path / "Cargo.lock")
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "main.rs").write_text("fn main() {}\n")
    (tmp_path / "target" / "release").mkdir(parents=True)
    (tmp_path / "target" / "release" / "rust-extractors").write_bytes(b"")
    version, reason = with_rust.status(None, tmp_path)
    assert reason is None and version.startswith("dom_smoothie 0.19.0, rs-trafilatura 0.2.2, main.rs ")
    (tmp_path / "src" / "main.rs").write_text("fn main() { println!(); }\n")
    assert with_rust.status(None, tmp_path)[0] != version  # an edited program recomputes both extractors


def test_defuddle_says_whether_node_or_its_npm_packages_are_missing(tmp_path):
    version, reason = with_defuddle.status(None, tmp_path)
    assert version == "unavailable" and reason.startswith("Node.js is not installed (no `node` on the PATH)")
    reason = with_defuddle.status("/usr/bin/node", tmp_path)[1]
    assert reason == f"the npm packages are not installed (defuddle, linkedom missing): {with_defuddle.INSTALL_HINT}"
    for package, found in (("defuddle", "0.19.4"), ("linkedom", "0.18.15")):
        (tmp_path / "node_modules" / package).mkdir(parents=True)
        (tmp_path / "node_modules" / package / "package.json").write_text(json.dumps({"version": found}))
    assert with_defuddle.status("/usr/bin/node", tmp_path) == ("defuddle 0.19.4, linkedom 0.18.15, goldtext-blocks 1",
                                                               None)


def test_magic_html_says_its_environment_is_missing_until_the_install_script_made_it(tmp_path):
    version, reason = with_magic_html.status(tmp_path)
    assert version == "unavailable"
    assert reason.startswith("magic-html is not installed in its own Python 3.12 environment: run ")
    assert reason.endswith("install.sh (it needs a Python 3.12 or later, from pyenv or the PATH)")
    site = tmp_path / ".venv" / "lib" / "python3.12" / "site-packages"
    (site / "magic_html-0.1.8.dist-info").mkdir(parents=True)
    assert with_magic_html.status(tmp_path)[0] == "unavailable"  # no Python in the environment
    (tmp_path / ".venv" / "bin").mkdir()
    (tmp_path / ".venv" / "bin" / "python").write_bytes(b"")
    assert with_magic_html.status(tmp_path) == (f"magic-html 0.1.8, goldtext-blocks 1, {MARKDOWN_VERSION}", None)


def test_the_registered_rs_trafilatura_is_the_rust_programs_0_2_2():
    extractor = build_registry()["rs-trafilatura"]
    assert extractor.func is with_rust.run_rs_trafilatura
    if extractor.available:
        assert "rs-trafilatura 0.2.2" in extractor.version


# --- what they extract from real pages ----------------------------------------------------------------------


def reference(slug: str) -> dict[str, str]:
    """Readability.js's own text of a test page (its expected.html), as a gold for the WCXB word F1."""
    return {"text": block_text(parse_html((READABILITY_PAGES / slug / "expected.html").read_text()))}


@pytest.mark.slow
@pytest.mark.corpus(READABILITY)
@pytest.mark.parametrize("name", ADDED)
def test_each_extracts_the_article_of_real_pages_without_the_boilerplate(name):
    """On a few of Readability's test pages each gives text on every page, close to Readability.js's own article
    (word F1 above 0.9 on average) and far more precise than the page's whole visible text (its boilerplate
    left out)."""
    extractor = runnable(name)
    whole_page = build_registry()["whole-page"]
    scores, precisions, baseline = [], [], []
    for slug in ARTICLES:
        html = (READABILITY_PAGES / slug / "source.html").read_text(encoding="utf-8")
        text = extractor(html, f"https://{slug}.example/article").text
        assert text.strip(), f"{name} gave no text on {slug}"
        found = counts(text, reference(slug))
        scores.append(found["f1"])
        precisions.append(found["precision"])
        baseline.append(counts(whole_page(html, None).text, reference(slug))["precision"])
    assert sum(scores) / len(scores) > 0.9
    assert sum(precisions) / len(precisions) > sum(baseline) / len(baseline) + 0.2


@pytest.mark.corpus(READABILITY)
def test_dom_smoothie_follows_readability_js():
    """dom-smoothie ports Readability.js: on these pages its words are Readability.js's own (expected.html)."""
    extractor = runnable("dom-smoothie")
    for slug in ARTICLES:
        html = (READABILITY_PAGES / slug / "source.html").read_text(encoding="utf-8")
        assert counts(extractor(html, None).text, reference(slug))["f1"] > 0.99, slug


@pytest.mark.corpus(READABILITY)
def test_defuddle_and_dom_smoothie_keep_the_pages_metadata():
    html = (READABILITY_PAGES / "ars-1" / "source.html").read_text(encoding="utf-8")
    title = "Just-released Minecraft exploit makes it easy to crash game servers"
    defuddled = runnable("defuddle")(html, "http://arstechnica.com/security/2015/04/minecraft").metadata
    assert defuddled["title"] == title and defuddled["author"] == "Dan Goodin" and defuddled["site"] == "Ars Technica"
    assert defuddled["published"].startswith("2015-04-16")
    smoothed = runnable("dom-smoothie")(html, "http://arstechnica.com/security/2015/04/minecraft").metadata
    assert smoothed["title"] == title and smoothed["byline"] == "Dan Goodin"


@pytest.mark.corpus(WCXB)
def test_rs_trafilatura_predicts_a_lower_quality_where_it_extracts_little():
    """Its extraction_quality, a number from 0 to 1 on every page, is higher on the articles where it keeps the
    text than on the blank page, where it keeps nothing."""
    extractor = runnable("rs-trafilatura")
    files = json.loads((CORPORA / WCXB / "metadata.json").read_text())["files"]
    articles = [file_id for file_id, facts in sorted(files.items()) if facts["page_type"] == "article"][:5]
    qualities = []
    for file_id in articles:
        html = gzip.decompress((CORPORA / WCXB / "dev" / "html" / f"{file_id}.html.gz").read_bytes()).decode()
        qualities.append(extractor(html, None).metadata["extraction_quality"])
    assert all(0 <= quality <= 1 for quality in qualities)
    blank = extractor("<html><body><nav><a href='/'>Home</a></nav></body></html>", None)
    assert blank.text == "" and blank.metadata["extraction_quality"] < min(qualities)


# --- the programs: Markdown, errors, recovery -----------------------------------------------------------------


@pytest.mark.corpus(READABILITY)
@pytest.mark.parametrize(("name", "command", "request_of"), [
    ("defuddle", lambda: ["node", str(with_defuddle.SCRIPT)], lambda html: {"html": html, "url": None, "options": {}}),
    ("dom-smoothie", lambda: [str(with_rust.PROGRAM)],
     lambda html: {"extractor": "dom-smoothie", "html": html, "url": None, "options": {}}),
    ("rs-trafilatura", lambda: [str(with_rust.PROGRAM)],
     lambda html: {"extractor": "rs-trafilatura", "html": html, "url": None, "options": {}}),
])
def test_the_programs_answer_the_contents_markdown_beside_its_text(name, command, request_of):
    runnable(name)
    html = (READABILITY_PAGES / "ars-1" / "source.html").read_text(encoding="utf-8")
    program = HelperProcess(command(), with_rust.FOLDER if name != "defuddle" else with_defuddle.FOLDER, name)
    try:
        answer = program.ask(request_of(html))
    finally:
        program.close()
    markdown = answer["markdown"]
    assert "A flaw in the wildly popular online game *Minecraft* makes it easy" in markdown
    assert "<p>" not in markdown


def test_an_option_the_rust_program_refuses_is_the_pages_error_not_a_crash():
    runnable("dom-smoothie")
    bad = Extractor("smoothie-bad", "test", with_rust.run_dom_smoothie, {"candidate_select_mode": "sideways"}, "bad")
    with pytest.raises(RuntimeError, match='dom-smoothie: unknown candidate_select_mode "sideways"'):
        bad(ARTICLE, ARTICLE_URL)
    forced = Extractor("rs-bad", "test", with_rust.run_rs_trafilatura, {"page_type": "sideways"}, "bad")
    with pytest.raises(RuntimeError, match='rs-trafilatura: page_type "sideways"'):
        forced(ARTICLE, ARTICLE_URL)
    assert "For forty-one winters" in build_registry()["dom-smoothie"](ARTICLE, ARTICLE_URL).text


@pytest.mark.slow
@pytest.mark.parametrize(("name", "module"), [("dom-smoothie", with_rust), ("magic-html", with_magic_html),
                                              ("defuddle", with_defuddle)])
def test_each_recovers_after_its_program_died(name, module):
    extractor = runnable(name)
    assert "For forty-one winters" in extractor(ARTICLE, ARTICLE_URL).text
    helper = module._program if module is with_rust else module._script
    process = helper.process
    process.kill()
    process.wait()
    assert "For forty-one winters" in extractor(ARTICLE, ARTICLE_URL).text
    assert helper.process.pid != process.pid


def test_magic_html_runs_in_a_python_of_its_own_3_12_or_later():
    runnable("magic-html")
    program = HelperProcess([str(with_magic_html.python_of()), "-c", "import sys, json; input(); "
                             "print(json.dumps({'version': list(sys.version_info[:2])}))"],
                            with_magic_html.FOLDER, "python")
    try:
        assert tuple(program.ask({})["version"]) >= (3, 12) > sys.version_info[:2]
    finally:
        program.close()
