"""The exported pipeline.py quotes everything it embeds: an output path, extractor names, page types and
options holding `\"\"\"`, backslashes, newlines and NUL characters stay text in its docstring and its
description, and `python pipeline.py --help` runs the script as written, running none of them."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

from webapp.crawl.export import render_script, summary, write_pipeline

pytestmark = pytest.mark.security

pytest.importorskip("datatrove")

ROOT = Path(__file__).resolve().parents[2]


def hostile(marker: Path) -> dict[str, str]:
    """Texts that would end the docstring and run code writing `marker` if they were embedded raw."""
    code = f'"""\nopen({str(marker)!r}, "w").write("ran")\n"""'
    return {
        "path": f"/tmp/out{code}\\",
        "extractor": f"trafilatura{code}",
        "type": f"article{code}\x00",
        "challenger": f"resiliparse\\{code}",
        "created": f"2026-03-01{code}",
    }


def config(texts: dict[str, str], mode: str) -> dict:
    found = {"mode": mode, "challenger": texts["challenger"], "created": texts["created"],
             "command": f"goldtext export --format datatrove --out {texts['path']}",
             "options": {"favor_precision": texts["extractor"]}}
    if mode == "type":
        found["routes"] = {texts["type"]: {"extractor": texts["extractor"]}}
    else:
        found["extractor"] = texts["extractor"]
    return found


def descriptions(tree: ast.Module) -> list[str]:
    """The strings of the script's code (its docstring aside) that begin as the description does."""
    return [node.value for statement in tree.body[1:] for node in ast.walk(statement)
            if isinstance(node, ast.Constant) and isinstance(node.value, str)
            and node.value.startswith("Goldtext crawl pipeline: ")]


def code_of(tree: ast.Module) -> list[str]:
    """The script's statements after its docstring, with the description's text left out."""
    found = descriptions(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and node.value in found:
            node.value = "DESCRIPTION"
    return [ast.dump(node) for node in tree.body[1:]]


@pytest.mark.parametrize("mode", ["type", "one"])
def test_hostile_paths_names_and_options_stay_text_and_the_script_runs_as_written(tmp_path, mode):
    marker = tmp_path / "ran"
    texts = hostile(marker)
    made = config(texts, mode)
    script = render_script(made)
    tree = ast.parse(script)
    benign = ast.parse(render_script(config({key: "x" for key in texts}, mode)))
    assert descriptions(tree) == [f"Goldtext crawl pipeline: {summary(made)}"]
    assert code_of(tree) == code_of(benign)  # nothing but the docstring and the description differ
    docstring = ast.get_docstring(tree, clean=False)
    for key in ("path", "created", "extractor", "challenger"):
        assert texts[key] in docstring, key
    if mode == "type":
        assert texts["type"] in docstring

    out = tmp_path / "pipeline"
    write_pipeline(out, made)
    env = os.environ | {"PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, str(out / "pipeline.py"), "--help"], env=env, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "--warc" in done.stdout and "Goldtext crawl pipeline: " in done.stdout
    assert not marker.exists()
