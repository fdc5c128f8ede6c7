"""go-trafilatura and go-domdistiller (Chrome's DOM Distiller, ported to Go), run by one small Go program
(go_extractors/main.go) kept running beside each worker process and asked one page at a time, as the
Node.js script of Readability.js is (webapp/extractors/helper_process.py).

The module versions are pinned by go_extractors/go.mod and go.sum; the program is built from the Go module
registry by `go build -C webapp/extractors/go_extractors -o go-extractors .` (which `.ci/run` runs). Where
the Go toolchain or the built program is missing, both are listed as unavailable, saying which. Each runs
with the options of Zyte's article-extraction-benchmark (docs/extractors.md): the page alone, no URL, so
nothing is ever fetched.
"""

from __future__ import annotations

import hashlib
import re
import shlex
import shutil
from pathlib import Path
from typing import Any

from webapp.corpus.visible_text import block_text, parse_html
from webapp.extractors.article_fields import UNSET, article_fields
from webapp.extractors.base import Extracted, Extractor
from webapp.extractors.blocks import BLOCKS_VERSION, join_lines
from webapp.extractors.helper_process import HelperProcess
from webapp.extractors.kept_markdown import MARKDOWN_VERSION, html_markdown

FOLDER = Path(__file__).with_name("go_extractors")
PROGRAM = FOLDER / "go-extractors"
MODULES = ("github.com/markusmobius/go-trafilatura", "github.com/markusmobius/go-domdistiller")
BUILD_HINT = f"go build -C {shlex.quote(str(FOLDER))} -o go-extractors ."

_program: HelperProcess | None = None
"""This process's running program (each worker process starts its own on its first call)."""


TRAFILATURA_FIELDS = ("title", "authors", "published", "sitename", "language")
DISTILLER_FIELDS = ("title",)
ANSWER_KEYS = {"title": "title", "authors": "author", "published": "date", "sitename": "sitename",
               "language": "language"}
"""Where each field of the article's metadata is in the program's answer."""


def ask(
    extractor: str, html: str, options: dict[str, Any], fields: tuple[str, ...], *, text_of_html: bool,
) -> Extracted:
    """The program's text for the page, one line a block, and the Markdown of its content HTML where it sends
    one; the text is that HTML's visible text where `text_of_html` (go-trafilatura's own text runs every block
    into one line), else the library's own; metadata: the title, and why the text is empty where go-trafilatura
    found too little; the article's metadata: those of its `fields` the extractor gives. RuntimeError on the
    program's error."""
    global _program
    if _program is None:
        _program = HelperProcess([str(PROGRAM)], FOLDER, "go-extractors")
    answer = _program.ask({"extractor": extractor, "html": html, "options": options})
    if answer.get("error"):
        raise RuntimeError(f"{extractor}: {answer['error']}")
    content = answer.get("html") or ""
    metadata = {"title": answer.get("title") or ""}
    if answer.get("empty"):
        metadata["empty"] = answer["empty"]
    article = article_fields(**{field: answer.get(key) if field in fields else UNSET
                                for field, key in ANSWER_KEYS.items()})
    text = join_lines((answer.get("text") or "").splitlines())
    if not content.strip():
        return Extracted(text=text, metadata=metadata, article_metadata=article)
    root = parse_html(content)
    return Extracted(text=block_text(root) if text_of_html else text, metadata=metadata,
                     markdown=html_markdown(root), article_metadata=article)


def run_go_trafilatura(
    html: str, url: str | None, *, enable_fallback: bool = True, focus: str = "balanced",
    exclude_comments: bool = False, exclude_tables: bool = False, deduplicate: bool = False,
    target_language: str = "",
) -> Extracted:
    """trafilatura.ExtractDocument's content, one block per line; focus is `balanced`, `favor-recall` or
    `favor-precision`. The defaults are the benchmark's: EnableFallback on (readability and DOM Distiller as
    fallbacks), the library's defaults otherwise."""
    return ask("go-trafilatura", html, {
        "enable_fallback": enable_fallback, "focus": focus, "exclude_comments": exclude_comments,
        "exclude_tables": exclude_tables, "deduplicate": deduplicate, "target_language": target_language,
    }, TRAFILATURA_FIELDS, text_of_html=True)


def run_go_domdistiller(html: str, url: str | None, *, skip_pagination: bool = True) -> Extracted:
    """distiller.Apply's Text, and the Markdown of its Node (the HTML that Text is written from); pagination
    skipped, as the benchmark ran it (nothing is fetched either way)."""
    return ask("go-domdistiller", html, {"skip_pagination": skip_pagination}, DISTILLER_FIELDS, text_of_html=False)


def module_versions(folder: Path = FOLDER) -> dict[str, str | None]:
    """The version go.mod pins for each module of MODULES (None where go.mod or the line is missing)."""
    try:
        text = (folder / "go.mod").read_text()
    except OSError:
        text = ""
    found = {}
    for module in MODULES:
        match = re.search(rf"^\s*(?:require\s+)?{re.escape(module)}\s+(\S+)", text, re.MULTILINE)
        found[module] = match.group(1) if match else None
    return found


def status(go: str | None, folder: Path = FOLDER) -> tuple[str, str | None]:
    """(version, None) where the program is built; ("unavailable", why) where the toolchain or program is
    missing. The version names each module's pinned version and the program's source (a hash of main.go)."""
    if not (folder / PROGRAM.name).is_file():
        if go is None:
            return "unavailable", ("the Go toolchain is not installed (no `go` on the PATH): install Go 1.23 or "
                                   f"later, then build the program: {BUILD_HINT}")
        return "unavailable", f"the Go program is not built: {BUILD_HINT}"
    versions = module_versions(folder)
    source = hashlib.sha256((folder / "main.go").read_bytes()).hexdigest()[:12] if (folder / "main.go").is_file() \
        else "unknown"
    pinned = [f"{module.rsplit('/', 1)[1]} {found}" for module, found in versions.items()]
    return ", ".join([*pinned, f"main.go {source}", BLOCKS_VERSION, MARKDOWN_VERSION]), None


VERSION, MISSING = status(shutil.which("go"))

GO_TRAFILATURA = Extractor(
    name="go-trafilatura",
    version=VERSION,
    func=run_go_trafilatura,
    options={},
    description="go-trafilatura, the Go port of trafilatura, with its fallbacks (readability, DOM Distiller)",
    unavailable_reason=MISSING,
    structure=True,
    article_fields=TRAFILATURA_FIELDS,
)

GO_DOMDISTILLER = Extractor(
    name="go-domdistiller",
    version=VERSION,
    func=run_go_domdistiller,
    options={},
    description="go-domdistiller, Chrome's DOM Distiller ported to Go",
    unavailable_reason=MISSING,
    structure=True,
    article_fields=DISTILLER_FIELDS,
)
