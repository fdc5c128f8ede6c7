"""Every benchmark runs, always: each script in benchmarks/ takes `--quick` (tiny sizes, seconds), which CI
runs for every script after the SQLite suite (.ci/run), so a change that breaks a benchmark fails CI. These
checks read the scripts, they run none."""

from __future__ import annotations

import ast
from pathlib import Path

CHECKOUT = Path(__file__).resolve().parents[2]
BENCHMARKS = CHECKOUT / "benchmarks"


def calls_add_quick(script: Path) -> bool:
    """Whether the script gives its parser the shared quick flag (benchmarks/quick.py `add_quick`)."""
    tree = ast.parse(script.read_text(encoding="utf-8"))
    imported = any(isinstance(node, ast.ImportFrom) and node.module == "quick"
                   and any(alias.name == "add_quick" for alias in node.names) for node in ast.walk(tree))
    called = any(isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "add_quick"
                 for node in ast.walk(tree))
    return imported and called


def test_every_benchmark_script_takes_the_quick_flag():
    scripts = sorted(BENCHMARKS.glob("bench_*.py"))
    assert len(scripts) >= 12  # the glob saw the scripts
    assert [script.name for script in scripts if not calls_add_quick(script)] == []


def test_the_shared_flag_is_quick():
    tree = ast.parse((BENCHMARKS / "quick.py").read_text(encoding="utf-8"))
    flags = [arg.value for node in ast.walk(tree) if isinstance(node, ast.Call)
             and isinstance(node.func, ast.Attribute) and node.func.attr == "add_argument"
             for arg in node.args if isinstance(arg, ast.Constant)]
    assert flags == ["--quick"]


def test_ci_runs_every_benchmark_in_its_quick_mode():
    lines = (CHECKOUT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    loop = next(n for n, line in enumerate(lines) if line.startswith("for bench in benchmarks/bench_*.py"))
    assert any('"$bench" --quick' in line for line in lines[loop:loop + 4])
    suite = next(n for n, line in enumerate(lines) if "python -m pytest -n 2" in line)
    lint = lines.index("ruff check .")
    assert suite < loop < lint
