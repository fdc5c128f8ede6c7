"""magic-html (OpenDataLab): the main-content HTML its extractors keep, then its visible text, one block per line.

magic-html requires Python 3.12 or later (every release on PyPI, 0.1.8 the newest, says so), so it runs in an
environment of its own beside its script (magic_html_env/.venv, made by `magic_html_env/install.sh` from a Python
3.12 with the packages its requirements.txt pins), kept running beside each worker process and asked one page at
a time, as the Node.js script of readability-js is (webapp/extractors/helper_process.py). Listed as unavailable,
saying how to install it, until that environment is there.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from webapp.corpus.visible_text import block_text, parse_html
from webapp.extractors.article_fields import article_fields
from webapp.extractors.base import Extracted, Extractor
from webapp.extractors.blocks import BLOCKS_VERSION
from webapp.extractors.helper_process import HelperProcess
from webapp.extractors.kept_markdown import MARKDOWN_VERSION, html_markdown

FOLDER = Path(__file__).with_name("magic_html_env")
SCRIPT = FOLDER / "serve_pages.py"
INSTALL_HINT = shlex.quote(str(FOLDER / "install.sh"))

_script: HelperProcess | None = None
"""This process's running script (each worker process starts its own on its first call)."""


def python_of(folder: Path = FOLDER) -> Path:
    """The environment's Python."""
    return folder / ".venv" / "bin" / "python"


def run_magic_html(html: str, url: str | None, *, html_type: str = "article") -> Extracted:
    """GeneralExtractor().extract(html, base_url=URL, html_type=...) ("article", "forum" or "weixin"), its HTML's
    visible text; metadata and the article's metadata: its title."""
    global _script
    if _script is None:
        _script = HelperProcess([str(python_of()), str(SCRIPT)], FOLDER, "magic-html's Python")
    answer = _script.ask({"html": html, "url": url, "options": {"html_type": html_type}})
    if "error" in answer:
        raise RuntimeError(f"magic-html: {answer['error']}")
    content = answer.get("html") or ""
    root = parse_html(content) if content.strip() else None
    return Extracted(text=block_text(root) if root is not None else "", metadata={"title": answer.get("title") or ""},
                     markdown=html_markdown(root) if root is not None else "",
                     article_metadata=article_fields(title=answer.get("title")))


def installed_version(folder: Path = FOLDER) -> str | None:
    """The version of magic-html installed in the environment (from its dist-info folder's name), or None."""
    found = sorted((folder / ".venv" / "lib").glob("python3.*/site-packages/magic_html-*.dist-info"))
    match = re.fullmatch(r"magic_html-(.+)\.dist-info", found[-1].name) if found else None
    return match.group(1) if match else None


def status(folder: Path = FOLDER) -> tuple[str, str | None]:
    """(version, None) where the environment and magic-html are there; ("unavailable", why) where not."""
    found = installed_version(folder) if python_of(folder).is_file() else None
    if found is None:
        return "unavailable", ("magic-html is not installed in its own Python 3.12 environment: run "
                               f"{INSTALL_HINT} (it needs a Python 3.12 or later, from pyenv or the PATH)")
    return f"magic-html {found}, {BLOCKS_VERSION}, {MARKDOWN_VERSION}", None


VERSION, MISSING = status()

MAGIC_HTML = Extractor(
    name="magic-html",
    version=VERSION,
    func=run_magic_html,
    options={},
    description="magic-html (OpenDataLab), main-content HTML by node scoring, article layout by default, "
                "in its own Python 3.12",
    unavailable_reason=MISSING,
    structure=True,
    article_fields=("title",),
)
