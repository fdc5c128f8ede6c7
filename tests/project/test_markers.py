"""The suite's own rule for the shared corpora (conftest.py): a `corpus` test whose folder is missing is
skipped on a developer's machine, naming the folder, and fails in CI (CI=true), never passing unseen.

Each case runs pytest in a subprocess on the corpus tests of one module, with GOLDTEXT_SHARED_CORPORA
pointed at a folder that does not exist. (With the corpora there, the same tests run and pass in the
suite itself: in CI a skip would be a failure.)"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from corpora import READABILITY

CHECKOUT = Path(__file__).resolve().parents[2]
CORPUS_TESTS = "tests/scoring/test_scoring_aggregate.py"  # three `corpus` tests, quick when the corpora are there


def run_corpus_tests(corpora: Path, ci: bool) -> subprocess.CompletedProcess:
    env = {key: value for key, value in os.environ.items()
           if key not in ("CI", "GOLDTEXT_SHARED_CORPORA", "GOLDTEXT_TEST_DATABASE_URL")}
    env["GOLDTEXT_SHARED_CORPORA"] = str(corpora)
    if ci:
        env["CI"] = "true"
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-rsE", "-p", "no:cacheprovider", "-m", "corpus", CORPUS_TESTS],
        cwd=CHECKOUT, env=env, capture_output=True, text=True, timeout=300,
    )


@pytest.mark.slow
def test_without_the_corpora_a_corpus_test_is_skipped_naming_the_folder(tmp_path):
    missing = tmp_path / "no-corpora"
    result = run_corpus_tests(missing, ci=False)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "3 skipped" in result.stdout and "passed" not in result.stdout
    assert f"{missing / READABILITY} is missing" in result.stdout


@pytest.mark.slow
def test_without_the_corpora_a_corpus_test_fails_in_ci(tmp_path):
    missing = tmp_path / "no-corpora"
    result = run_corpus_tests(missing, ci=True)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "3 errors" in result.stdout and "skipped" not in result.stdout and "passed" not in result.stdout
    assert f"{missing / READABILITY} is missing: the corpus tests must run in CI" in result.stdout
