"""The JavaScript unit tests (tests/js/*.test.mjs, node:test) run by Node's own test runner.

Without `node` on PATH the test is skipped locally, and fails when CI=true: in CI a missing tool is a
failure, never a skip.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
JS_TESTS = ROOT / "tests" / "js"


@pytest.mark.slow
def test_the_javascript_unit_tests_pass():
    node = shutil.which("node")
    if node is None:
        if os.environ.get("CI") == "true":
            pytest.fail("node is missing: the JavaScript unit tests must run in CI")
        pytest.skip("node is missing")
    # The files `node --test tests/js/` finds, named one by one: Node 21+ reads its arguments as glob
    # patterns, not directories, and an empty list must fail rather than run nothing.
    files = sorted(str(p.relative_to(ROOT)) for p in JS_TESTS.glob("*.test.mjs"))
    assert files, f"no *.test.mjs file in {JS_TESTS}"
    result = subprocess.run([node, "--test", "--test-reporter=tap", *files], cwd=ROOT, capture_output=True,
                            text=True, timeout=300)
    output = result.stdout + result.stderr
    assert result.returncode == 0, f"node --test {' '.join(files)} failed:\n{output}"
    passed = re.search(r"^# pass (\d+)$", output, re.M)
    assert passed and int(passed.group(1)) > 0, f"no JavaScript test ran:\n{output}"
