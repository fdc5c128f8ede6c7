"""Every path of this repository that a comment, a docstring or a guide names exists: a file moved or
renamed leaves no stale reference behind."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = sorted(p.name for p in (ROOT / "webapp").iterdir() if p.is_dir() and not p.name.startswith("_"))
TOP = ("webapp", "tests", "static", "templates", "docs", "benchmarks")
FIRST = "|".join((*TOP, *PACKAGES))
NAMED = re.compile(rf"(?<![\w/.-])((?:{FIRST})/[\w/-]*\w\.(?:py|md|html|js|mjs|json|go|css|toml))(?![\w/])")
READ = [*ROOT.glob("webapp/**/*.py"), *ROOT.glob("static/js/*.js"), *ROOT.glob("docs/*.md"), ROOT / "README.md",
        *ROOT.glob("tests/**/*.py"), *ROOT.glob("templates/**/*.html"), *ROOT.glob("benchmarks/*.py")]
# Paths that name something outside this repository: files an export writes (a benchmark's results folder)
# and the scripts of another project's repository (Zyte's article-extraction-benchmark).
ELSEWHERE = re.compile(r"(^|/)[A-Z]+\.|^results/[\w-]+\.json$|^extractors/(run_\w+\.py|readability_js/cli\.js)$")


def named_paths() -> list[tuple[str, str]]:
    found = []
    for path in READ:
        if "node_modules" in path.parts:
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            for match in NAMED.finditer(line):
                found.append((f"{path.relative_to(ROOT)}:{number}", match.group(1)))
    return found


def exists(named: str) -> bool:
    return any((base / named).exists() for base in (ROOT, ROOT / "webapp", ROOT / "templates"))


def test_the_reader_finds_the_paths_the_code_names():
    names = {named for _, named in named_paths()}
    assert {"webapp/foundation/settings.py", "docs/metrics.md", "usecases/fields.py"} <= names


def test_every_named_path_exists():
    stale = [f"{where}: {named}" for where, named in named_paths()
             if not ELSEWHERE.search(named) and not exists(named)]
    assert not stale, "stale references:\n" + "\n".join(stale)
