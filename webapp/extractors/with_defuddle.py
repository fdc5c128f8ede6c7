"""Defuddle, the extractor behind Obsidian's web clipper (with its own extractors for sites such as Reddit,
Hacker News, GitHub and Substack), run by Node.js on linkedom (defuddle_js/extract.mjs) beside readability-js, as
Defuddle's own command line runs it.

Available where `node` is on the PATH and the npm packages are installed beside the script
(`npm ci --prefix webapp/extractors/defuddle_js`, pinned by its lockfile); listed as unavailable, saying which is
missing, elsewhere. A page's extraction depends on its HTML alone: Defuddle's asynchronous third-party fetches are
off and every fetch is refused; linkedom never runs the page's scripts nor loads anything. Its content HTML becomes
its visible text, one block per line, as for readability-js; the script also answers the content as Defuddle's
Markdown (`markdown`), for the extraction's Markdown to take.
"""

from __future__ import annotations

import shlex
import shutil
from pathlib import Path

from webapp.corpus.visible_text import block_text, parse_html
from webapp.extractors.article_fields import article_fields
from webapp.extractors.base import Extracted, Extractor
from webapp.extractors.helper_process import HelperProcess
from webapp.extractors.kept_markdown import html_markdown
from webapp.extractors.node_packages import node_status

FOLDER = Path(__file__).with_name("defuddle_js")
SCRIPT = FOLDER / "extract.mjs"
PACKAGES = ("defuddle", "linkedom")
INSTALL_HINT = f"npm ci --prefix {shlex.quote(str(FOLDER))}"
METADATA = ("title", "author", "published", "site", "description", "language")
"""What Defuddle says about the page that the extraction keeps, beside its site extractor's name."""

_script: HelperProcess | None = None
"""This process's running script (each worker process starts its own on its first call)."""


def run_defuddle(
    html: str, url: str | None, *, remove_hidden_elements: bool = True, remove_low_scoring: bool = True,
    standardize: bool = True, include_replies: str = "extractors",
) -> Extracted:
    """The visible text of Defuddle's content; metadata: title, author, published, site, description, language
    and `extractor_type`, the site extractor that read the page (empty where its general extraction did).
    The defaults are Defuddle's; `include_replies` is `extractors` (replies where a site extractor finds them),
    `all` or `none`. The article's metadata: its title, author, published date, site and language."""
    global _script
    if _script is None:
        _script = HelperProcess([shutil.which("node") or "node", str(SCRIPT)], FOLDER, "node")
    replies: bool | str = {"all": True, "none": False}.get(include_replies, include_replies)
    options = {"removeHiddenElements": remove_hidden_elements, "removeLowScoring": remove_low_scoring,
               "standardize": standardize, "includeReplies": replies}
    answer = _script.ask({"html": html, "url": url, "options": options})
    if "error" in answer:
        raise RuntimeError(f"Defuddle: {answer['error']}")
    content = answer.get("content") or ""
    root = parse_html(content) if content.strip() else None
    metadata = {field: answer.get(field) or "" for field in METADATA}
    metadata["extractor_type"] = answer.get("extractor_type") or ""
    return Extracted(text=block_text(root) if root is not None else "", metadata=metadata,
                     markdown=html_markdown(root) if root is not None else "",
                     article_metadata=article_fields(title=answer.get("title"), authors=answer.get("author"),
                                                     published=answer.get("published"), sitename=answer.get("site"),
                                                     language=answer.get("language")))


def status(node: str | None, folder: Path = FOLDER) -> tuple[str, str | None]:
    """(version, None) where Node.js and the packages are there; ("unavailable", why) where not."""
    return node_status(node, folder, PACKAGES, INSTALL_HINT)


VERSION, MISSING = status(shutil.which("node"))

DEFUDDLE = Extractor(
    name="defuddle",
    version=VERSION,
    func=run_defuddle,
    options={},
    description="Defuddle (Obsidian's web clipper) on linkedom, through Node.js; no fetches, scripts never run",
    unavailable_reason=MISSING,
    structure=True,
    article_fields=("title", "authors", "published", "sitename", "language"),
)
