"""A release runs the security suite alone (`python -m pytest -m security`): the marker must keep reaching
every module of the attack's cases, wherever it lives."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.security

CHECKOUT = Path(__file__).resolve().parents[2]
SUITE = [
    "tests/security/test_attacks.py",
    "tests/faces/test_access.py",  # every route as every identity (1,068 cases in the attack)
    "tests/faces/test_security.py",  # CSRF, CSP, escaping, the size cap
    "tests/faces/test_safe_serving.py",  # the hostile saved page
    "tests/faces/test_styled_serving.py",  # the hostile captured stylesheet
    "tests/browser/test_browser_styled_page.py",  # the styled frame loads nothing from outside
    "tests/faces/test_bad_input.py",  # bad ids, NUL bytes, deep JSON, huge bodies
    "tests/faces/test_outage_pages.py",  # an outage answers 503 everywhere
    "tests/accounts/test_device_cookies.py",  # a lockout by name cannot keep the real user out
    "tests/accounts/test_audit_chain.py",  # the audit log's chain and its end
    "tests/crawl/test_pipeline_quoting.py",  # generated code quotes what it embeds
    "tests/crawl/test_crawl_output_errors.py",  # malformed crawl output, the report's quoting
    "tests/exports/test_export_readers.py",  # CSV cells
]


@pytest.mark.slow
def test_the_security_marker_reaches_every_module_of_the_suite():
    env = {key: value for key, value in os.environ.items() if key != "GOLDTEXT_TEST_DATABASE_URL"}
    found = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-m", "security",
                            "-p", "no:cacheprovider", *SUITE], cwd=CHECKOUT, env=env, capture_output=True,
                           text=True, timeout=300)
    assert found.returncode == 0, found.stdout[-2000:] + found.stderr[-2000:]
    collected = {line.split("::", 1)[0] for line in found.stdout.splitlines() if "::" in line}
    assert collected == set(SUITE), sorted(set(SUITE) - collected)
