"""The extractors of the `extractors` extra, Readability.js and Defuddle through Node.js, go-trafilatura and
go-domdistiller through the Go program, dom-smoothie and rs-trafilatura through the Rust program, and magic-html in
its own Python: registered like the built-ins, fingerprinted with their package versions, listed as unavailable
(saying why) where their package, Node.js, a toolchain, the built program or the environment is missing, never
fetching anything a saved page names nor running its scripts, and killed by name at the runner's timeout."""

from __future__ import annotations

import http.server
from collections.abc import Iterator

import pytest
from served import served
from test_extractors import (
    ARTICLE,
    ARTICLE_PARAGRAPHS,
    ARTICLE_URL,
    FOOTER_TEXT,
    NAV_TEXT,
    OPTIONAL_NAMES,
    starting_lines,
)

from webapp.extractors import with_go
from webapp.extractors.base import EXTRA_HINT, Extractor, optional_package
from webapp.extractors.process_pool import Call, ExtractorPool
from webapp.extractors.registry import UnavailableExtractor, build_registry, resolve, runnable
from webapp.extractors.with_readability_js import FOLDER, status

AVAILABLE = [e.name for e in runnable(build_registry()) if e.name in OPTIONAL_NAMES]
PYTHON_PACKAGES = {"resiliparse": "resiliparse", "newspaper4k": "newspaper4k", "goose3": "goose3",
                   "html-text": "html-text", "inscriptis": "inscriptis"}


def available(name: str) -> Extractor:
    extractor = build_registry()[name]
    if not extractor.available:
        pytest.skip(extractor.unavailable_reason)
    return extractor


# --- registered, fingerprinted, or unavailable with the reason ---------------------------------------------


@pytest.mark.parametrize(("name", "distribution"), PYTHON_PACKAGES.items())
def test_each_is_fingerprinted_with_its_package_version_or_says_how_to_install_it(name, distribution):
    extractor = build_registry()[name]
    version, missing = optional_package(distribution)
    assert extractor.fingerprint.startswith(f"{name}|{version}")
    assert (extractor.unavailable_reason is None) == (missing is None)
    if missing:
        assert extractor.unavailable_reason.startswith(f"{distribution} is not installed: ")
        assert extractor.unavailable_reason.endswith(EXTRA_HINT)


def test_a_missing_package_is_named_with_the_extras_install_command():
    version, reason = optional_package("goldtext-no-such-package")
    assert version == "goldtext-no-such-package not installed"
    assert reason == f"goldtext-no-such-package is not installed: {EXTRA_HINT}"
    assert EXTRA_HINT == "pip install 'goldtext[extractors]'"


def test_readability_js_says_whether_node_or_the_npm_packages_are_missing(tmp_path):
    version, reason = status(None)
    assert version == "unavailable"
    assert reason.startswith("Node.js is not installed (no `node` on the PATH): install Node.js 18 or later, then ")
    assert "npm ci --prefix " in reason
    version, reason = status("/usr/bin/node", tmp_path)
    assert reason.startswith("the npm packages are not installed (@mozilla/readability, jsdom missing): npm ci ")
    for package, found in (("@mozilla/readability", "0.6.0"), ("jsdom", "26.1.0")):
        (tmp_path / "node_modules" / package).mkdir(parents=True)
        (tmp_path / "node_modules" / package / "package.json").write_text(f'{{"version": "{found}"}}')
    assert status("/usr/bin/node", tmp_path) == ("@mozilla/readability 0.6.0, jsdom 26.1.0, goldtext-blocks 1", None)


def test_the_go_extractors_say_whether_the_toolchain_or_the_built_program_is_missing(tmp_path):
    version, reason = with_go.status(None, tmp_path)
    assert version == "unavailable"
    assert reason.startswith("the Go toolchain is not installed (no `go` on the PATH): install Go 1.23 or later, ")
    assert reason.endswith(f"build the program: {with_go.BUILD_HINT}")
    assert with_go.status("/usr/local/go/bin/go", tmp_path) == (
        "unavailable", f"the Go program is not built: {with_go.BUILD_HINT}")
    (tmp_path / "go.mod").write_text("module x\n\nrequire (\n\tgithub.com/markusmobius/go-domdistiller v1.0.0\n"
                                     "\tgithub.com/markusmobius/go-trafilatura v1.12.2\n)\n")
    (tmp_path / "main.go").write_text("package main\n")
    (tmp_path / "go-extractors").write_bytes(b"")
    version, reason = with_go.status(None, tmp_path)
    assert reason is None and version.startswith("go-trafilatura v1.12.2, go-domdistiller v1.0.0, main.go ")


def test_the_go_modules_are_pinned_and_fingerprint_both_go_extractors():
    versions = with_go.module_versions()
    assert versions == {"github.com/markusmobius/go-trafilatura": "v1.12.2",
                        "github.com/markusmobius/go-domdistiller": "v1.0.0"}
    assert "github.com/markusmobius/go-trafilatura v1.12.2 h1:" in (with_go.FOLDER / "go.sum").read_text()
    registry = build_registry()
    for name in ("go-trafilatura", "go-domdistiller"):
        extractor = registry[name]
        if extractor.available:
            assert extractor.fingerprint.startswith(f"{name}|go-trafilatura v1.12.2, go-domdistiller v1.0.0, main.go ")
        else:
            assert extractor.unavailable_reason.endswith(with_go.BUILD_HINT)


def test_the_published_configurations_are_the_plain_names_defaults():
    """The plain names run as Zyte's benchmark scripts did (docs/extractors.md says where each comes from)."""
    registry = build_registry()
    defaults = {name: {**{p: v for p, v in defaults_of(registry[name]).items()}, **registry[name].options}
                for name in ("resiliparse", "justext", "go-trafilatura", "go-domdistiller", "rs-trafilatura")}
    assert defaults["resiliparse"] == {"main_content": True, "list_bullets": True, "alt_texts": True, "links": False,
                                       "form_fields": False, "noscript": False, "comments": True}
    assert [defaults["justext"][key] for key in ("length_low", "length_high", "stopwords_low", "stopwords_high",
                                                  "max_link_density", "max_heading_distance", "no_headings")] \
        == [50, 200, 0.1, 0.2, 0.2, 200, True]
    assert defaults["go-trafilatura"]["enable_fallback"] is True and defaults["go-trafilatura"]["focus"] == "balanced"
    assert defaults["go-domdistiller"] == {"skip_pagination": True}
    assert defaults["rs-trafilatura"]["use_url"] is False and defaults["rs-trafilatura"]["page_type"] == ""


def defaults_of(extractor: Extractor) -> dict:
    import inspect

    parameters = list(inspect.signature(extractor.func).parameters.values())[2:]
    return {p.name: p.default for p in parameters if p.default is not inspect.Parameter.empty}


def test_the_npm_packages_are_pinned_by_the_lockfile_beside_the_script():
    assert (FOLDER / "package.json").is_file() and (FOLDER / "package-lock.json").is_file()
    lock = (FOLDER / "package-lock.json").read_text()
    assert '"node_modules/@mozilla/readability"' in lock and '"node_modules/jsdom"' in lock


def test_an_unavailable_extractor_is_listed_but_never_run():
    ghost = Extractor("ghost", "ghost-lib not installed", lambda html, url: None, {}, "a missing one",
                      "ghost-lib is not installed: pip install ghost-lib")
    registry = {**build_registry(), "ghost": ghost}
    assert "ghost" not in [e.name for e in runnable(registry)]
    with pytest.raises(UnavailableExtractor, match="ghost is unavailable: ghost-lib is not installed: pip install"):
        resolve(registry, ["trafilatura", "ghost"])
    with pytest.raises(RuntimeError, match="'ghost' is unavailable"):
        ghost("<p>x</p>")


# --- what they extract -----------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["html-text", "inscriptis"])
def test_the_whole_page_baselines_keep_nav_and_footer(name):
    text = available(name)(ARTICLE, ARTICLE_URL).text
    assert starting_lines(text) == ARTICLE_PARAGRAPHS
    assert NAV_TEXT in text and all(footer in text for footer in FOOTER_TEXT)


class Recorder(http.server.BaseHTTPRequestHandler):
    """Answers every GET with a tiny page and remembers the path: any request is a page's remote load."""

    seen: list[str] = []

    def do_GET(self) -> None:
        Recorder.seen.append(self.path)
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.end_headers()
        self.wfile.write(b"<html><body><p>fetched from the network</p></body></html>")

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def origin() -> Iterator[str]:
    """http://127.0.0.1:PORT of a local server that records every request made to it."""
    Recorder.seen = []
    with served(http.server.ThreadingHTTPServer(("127.0.0.1", 0), Recorder)) as server:
        yield f"http://127.0.0.1:{server.server_port}"


def hostile_page(origin: str) -> str:
    """The test article with a script that would rewrite it and every kind of remote load."""
    loads = (f'<link rel="stylesheet" href="{origin}/style.css"><script src="{origin}/app.js"></script>'
             f'<img src="{origin}/pixel.gif" width="400" height="300"><iframe src="{origin}/frame"></iframe>'
             f'<meta http-equiv="refresh" content="0; url={origin}/refresh">')
    script = "<script>document.querySelector('article').innerHTML = '<p>INJECTED BY THE PAGE SCRIPT</p>';</script>"
    return ARTICLE.replace("</head>", loads + "</head>").replace("</body>", script + "</body>")


@pytest.mark.parametrize("name", OPTIONAL_NAMES)
def test_a_saved_page_loads_nothing_and_runs_no_script(name, origin):
    extractor = available(name)
    text = extractor(hostile_page(origin), f"{origin}/article").text
    if name not in ("html-text", "inscriptis"):
        assert starting_lines(text) == ARTICLE_PARAGRAPHS
    assert "INJECTED BY THE PAGE SCRIPT" not in text
    extractor("", f"{origin}/empty")  # goose3 would fetch the URL of an empty page were it given
    assert Recorder.seen == []


# --- killed by name at the timeout ------------------------------------------------------------------------

HUGE_PAGE = "<html><body>" + ("<div class='c'><p>" + "word " * 50 + "</p></div>") * 40_000 + "</body></html>"
"""About 11 MB of paragraphs: every extractor takes far longer than the timeout below on it."""


@pytest.mark.slow
def test_a_call_past_the_timeout_is_reported_by_the_extractors_name():
    extractors = [build_registry()[name] for name in AVAILABLE]
    calls = [Call(e.name, e, HUGE_PAGE, None) for e in extractors]
    with ExtractorPool(workers=2, timeout=0.05) as pool:
        results = list(pool.run(calls))
    assert sorted(r.extractor_name for r in results) == sorted(AVAILABLE)
    assert {r.extractor_name: r.error for r in results} == {name: "timeout after 0.05 s" for name in AVAILABLE}


@pytest.mark.skipif("readability-js" not in AVAILABLE, reason="Node.js or the npm packages are missing")
def test_readability_js_recovers_after_its_node_process_died():
    from webapp.extractors import with_readability_js

    extractor = build_registry()["readability-js"]
    assert "For forty-one winters" in extractor(ARTICLE, ARTICLE_URL).text
    process = with_readability_js._script.process
    process.kill()
    process.wait()
    assert "For forty-one winters" in extractor(ARTICLE, ARTICLE_URL).text


@pytest.mark.skipif("go-trafilatura" not in AVAILABLE, reason="the Go program is not built")
def test_the_go_extractors_recover_after_their_program_died():
    registry = build_registry()
    assert "For forty-one winters" in registry["go-trafilatura"](ARTICLE, ARTICLE_URL).text
    process = with_go._program.process
    process.kill()
    process.wait()
    assert "For forty-one winters" in registry["go-domdistiller"](ARTICLE, ARTICLE_URL).text
    assert with_go._program.process.pid != process.pid


@pytest.mark.skipif("go-trafilatura" not in AVAILABLE, reason="the Go program is not built")
def test_an_option_the_go_program_refuses_is_the_pages_error_not_a_crash():
    bad = Extractor("go-bad", "test", with_go.run_go_trafilatura, {"focus": "sideways"}, "a bad focus")
    with pytest.raises(RuntimeError, match='go-trafilatura: unknown focus "sideways"'):
        bad(ARTICLE, ARTICLE_URL)
    assert "For forty-one winters" in build_registry()["go-trafilatura"](ARTICLE, ARTICLE_URL).text


@pytest.mark.skipif("rs-trafilatura" not in AVAILABLE, reason="the Rust program is not built")
def test_rs_trafilatura_records_the_page_type_it_classified():
    extracted = build_registry()["rs-trafilatura"](ARTICLE, ARTICLE_URL)
    assert extracted.metadata["page_type"] == "article" and 0 < extracted.metadata["classification_confidence"] <= 1
    assert 0 <= extracted.metadata["extraction_quality"] <= 1
    forced = Extractor("rs-forum", "test", build_registry()["rs-trafilatura"].func, {"page_type": "forum"}, "forced")
    assert forced(ARTICLE, ARTICLE_URL).metadata["page_type"] == "forum"
