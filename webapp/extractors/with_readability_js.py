"""Mozilla Readability.js, the reader view of Firefox, run by Node.js on jsdom (readability_js/extract.mjs).

Available where `node` is on the PATH and the npm packages are installed beside the script
(`npm ci --prefix webapp/extractors/readability_js`); listed as unavailable, saying which is missing,
elsewhere. jsdom never runs the page's scripts nor loads anything. Readability's article HTML becomes its
visible text, one block per line, as for readability-lxml.
"""

from __future__ import annotations

import shlex
import shutil
from pathlib import Path

from webapp.corpus.visible_text import block_text, parse_html
from webapp.extractors.article_fields import article_fields
from webapp.extractors.base import Extracted, Extractor
from webapp.extractors.helper_process import HelperProcess
from webapp.extractors.kept_markdown import MARKDOWN_VERSION, html_markdown
from webapp.extractors.node_packages import node_status

FOLDER = Path(__file__).with_name("readability_js")
SCRIPT = FOLDER / "extract.mjs"
PACKAGES = ("@mozilla/readability", "jsdom")
INSTALL_HINT = f"npm ci --prefix {shlex.quote(str(FOLDER))}"

_script: HelperProcess | None = None
"""This process's running script (each worker process starts its own on its first call)."""


def run_readability_js(
    html: str, url: str | None, *, char_threshold: int = 500, nb_top_candidates: int = 5,
    link_density_modifier: float = 0.0,
) -> Extracted:
    """The visible text of Readability.parse()'s content (empty when it finds no article); metadata: title, byline;
    the article's metadata: its title, byline (as authors), published time, site name and language."""
    global _script
    if _script is None:
        _script = HelperProcess([shutil.which("node") or "node", str(SCRIPT)], FOLDER, "node")
    options = {"charThreshold": char_threshold, "nbTopCandidates": nb_top_candidates,
               "linkDensityModifier": link_density_modifier}
    answer = _script.ask({"html": html, "url": url, "options": options})
    if "error" in answer:
        raise RuntimeError(f"Readability.js: {answer['error']}")
    content = answer.get("content") or ""
    root = parse_html(content) if content.strip() else None
    return Extracted(text=block_text(root) if root is not None else "",
                     metadata={"title": answer.get("title") or "", "byline": answer.get("byline") or ""},
                     markdown=html_markdown(root) if root is not None else "",
                     article_metadata=article_fields(title=answer.get("title"), authors=answer.get("byline"),
                                                     published=answer.get("publishedTime"),
                                                     sitename=answer.get("siteName"), language=answer.get("lang")))


def status(node: str | None, folder: Path = FOLDER) -> tuple[str, str | None]:
    """(version, None) where Node.js and the packages are there; ("unavailable", why) where not."""
    return node_status(node, folder, PACKAGES, INSTALL_HINT)


VERSION, MISSING = status(shutil.which("node"))
VERSION = VERSION if MISSING else f"{VERSION}, {MARKDOWN_VERSION}"  # its Markdown is html-to-markdown's

READABILITY_JS = Extractor(
    name="readability-js",
    version=VERSION,
    func=run_readability_js,
    options={},
    description="Mozilla Readability.js (Firefox's reader view) on jsdom, through Node.js; scripts never run",
    unavailable_reason=MISSING,
    structure=True,
    article_fields=("title", "authors", "published", "sitename", "language"),
)
