"""dom-smoothie (Readability.js ported to Rust) and rs-trafilatura 0.2.2 (trafilatura reimplemented in Rust, with
a page-type classifier and a predicted extraction quality), run by one small Rust program
(rust_extractors/src/main.rs) kept running beside each worker process and asked one page at a time, as the Go
program of go-trafilatura is (webapp/extractors/helper_process.py).

The crate versions are pinned by rust_extractors/Cargo.toml and Cargo.lock; the program is built from the crate
registry by `cargo build --release --locked` in that folder (which `.ci/run` runs). Where cargo or the built
program is missing, both are listed as unavailable, saying which. Neither library fetches anything: the page is
parsed from its HTML, and the URL only resolves dom-smoothie's links. Each answer of the program carries the
content's Markdown too (`markdown`, as each library writes it), for the extraction's Markdown to take.
"""

from __future__ import annotations

import hashlib
import shlex
import shutil
import tomllib
from pathlib import Path
from typing import Any

from webapp.corpus.visible_text import block_text, parse_html
from webapp.extractors.article_fields import article_fields
from webapp.extractors.base import Extracted, Extractor
from webapp.extractors.blocks import BLOCKS_VERSION, join_lines
from webapp.extractors.helper_process import HelperProcess
from webapp.extractors.kept_markdown import html_markdown, tidy

FOLDER = Path(__file__).with_name("rust_extractors")
PROGRAM = FOLDER / "target" / "release" / "rust-extractors"
CRATES = ("dom_smoothie", "rs-trafilatura")
BUILD_HINT = f"cargo build --release --locked --manifest-path {shlex.quote(str(FOLDER / 'Cargo.toml'))}"

QUALITY = "extraction_quality"
"""The metadata key of rs-trafilatura's predicted quality of its own extraction (0 to 1)."""

_program: HelperProcess | None = None
"""This process's running program (each worker process starts its own on its first call)."""


def ask(extractor: str, html: str, url: str | None, options: dict[str, Any]) -> dict[str, Any]:
    """The program's answer for the page; RuntimeError on the program's error."""
    global _program
    if _program is None:
        _program = HelperProcess([str(PROGRAM)], FOLDER, "rust-extractors")
    answer = _program.ask({"extractor": extractor, "html": html, "url": url, "options": options})
    if answer.get("error"):
        raise RuntimeError(f"{extractor}: {answer['error']}")
    return answer


def run_dom_smoothie(
    html: str, url: str | None, *, char_threshold: int = 500, n_top_candidates: int = 5,
    candidate_select_mode: str = "readability",
) -> Extracted:
    """Readability::parse's content HTML as visible text, one block per line (empty where it finds no article,
    the metadata's `empty` saying why); metadata: title, byline (the article's metadata: title and authors). The
    defaults are the crate's (`Config::default()`); `candidate_select_mode` is `readability` (Readability.js's choice
    of the top candidate) or `dom-smoothie` (the crate's own)."""
    answer = ask("dom-smoothie", html, url, {"char_threshold": char_threshold, "n_top_candidates": n_top_candidates,
                                             "candidate_select_mode": candidate_select_mode})
    content = answer.get("html") or ""
    root = parse_html(content) if content.strip() else None
    metadata = {"title": answer.get("title") or "", "byline": answer.get("byline") or ""}
    if answer.get("empty"):
        metadata["empty"] = answer["empty"]
    return Extracted(text=block_text(root) if root is not None else "", metadata=metadata,
                     markdown=html_markdown(root) if root is not None else "",
                     article_metadata=article_fields(title=answer.get("title"), authors=answer.get("byline")))


def run_rs_trafilatura(
    html: str, url: str | None, *, use_url: bool = False, page_type: str = "", favor_precision: bool = False,
    favor_recall: bool = False, include_tables: bool = True, include_comments: bool = False,
) -> Extracted:
    """rs_trafilatura::extract_with_options's content_text; metadata: title, the page type it classified (or was
    given), the classifier's confidence and its predicted extraction quality (`extraction_quality`, 0 to 1).
    The article's metadata: its title, author, date and sitename. `use_url` gives it the page's URL (a hint to its
    classifier); `page_type` forces a type, bypassing the classifier."""
    answer = ask("rs-trafilatura", html, url, {
        "use_url": use_url, "page_type": page_type, "favor_precision": favor_precision,
        "favor_recall": favor_recall, "include_tables": include_tables, "include_comments": include_comments,
    })
    metadata = {"title": answer.get("title") or "", "page_type": answer.get("page_type"),
                "classification_confidence": answer.get("classification_confidence"),
                QUALITY: answer.get("extraction_quality")}
    return Extracted(text=join_lines((answer.get("text") or "").splitlines()), metadata=metadata,
                     markdown=tidy(answer.get("markdown") or ""),
                     article_metadata=article_fields(title=answer.get("title"), authors=answer.get("author"),
                                                     published=answer.get("date"), sitename=answer.get("sitename")))


def crate_versions(folder: Path = FOLDER) -> dict[str, str | None]:
    """The version Cargo.lock pins for each crate of CRATES (None where the lockfile or the crate is missing)."""
    try:
        packages = tomllib.loads((folder / "Cargo.lock").read_text()).get("package", [])
    except (OSError, tomllib.TOMLDecodeError):
        packages = []
    pinned = {package.get("name"): package.get("version") for package in packages}
    return {crate: pinned.get(crate) for crate in CRATES}


def status(cargo: str | None, folder: Path = FOLDER) -> tuple[str, str | None]:
    """(version, None) where the program is built; ("unavailable", why) where cargo or the program is missing.
    The version names each crate's pinned version and the program's source (a hash of src/main.rs)."""
    if not (folder / PROGRAM.relative_to(FOLDER)).is_file():
        if cargo is None:
            return "unavailable", ("Rust's cargo is not installed (no `cargo` on the PATH): install Rust 1.85 or "
                                   f"later (rustup.rs), then build the program: {BUILD_HINT}")
        return "unavailable", f"the Rust program is not built: {BUILD_HINT}"
    source = folder / "src" / "main.rs"
    digest = hashlib.sha256(source.read_bytes()).hexdigest()[:12] if source.is_file() else "unknown"
    pinned = [f"{crate} {found}" for crate, found in crate_versions(folder).items()]
    return ", ".join([*pinned, f"main.rs {digest}", BLOCKS_VERSION]), None


VERSION, MISSING = status(shutil.which("cargo"))

DOM_SMOOTHIE = Extractor(
    name="dom-smoothie",
    version=VERSION,
    func=run_dom_smoothie,
    options={},
    description="dom-smoothie, Mozilla's Readability.js ported to Rust",
    unavailable_reason=MISSING,
    structure=True,
    article_fields=("title", "authors"),
)

RS_TRAFILATURA = Extractor(
    name="rs-trafilatura",
    version=VERSION,
    func=run_rs_trafilatura,
    options={},
    description="rs-trafilatura, trafilatura reimplemented in Rust: a page-type classifier chooses its profile, "
                "and it predicts its own extraction quality",
    unavailable_reason=MISSING,
    structure=True,
    article_fields=("title", "authors", "published", "sitename"),
)
