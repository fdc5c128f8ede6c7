"""Forms parsed by one mechanism (issue 32): no view reads the request's query string, form, files or JSON
body but through web/request_input.py, whose declared field lists are checked by the JSON-Schema mechanism of
the use cases' bodies."""

from __future__ import annotations

import re
from pathlib import Path

WEBAPP = Path(__file__).resolve().parents[2] / "webapp"
RAW_READ = re.compile(r"\brequest\.(?:form|args|values|files|json|get_json|data|get_data)\b")
"""A request's fields read as they stand."""
READERS = {
    "web/request_input.py": "the one mechanism",
    "web/bad_input.py": "the before-request check: a NUL in any field, a body's size and depth, before any view",
    "web/security.py": "the CSRF check of every form, before any view",
    "web/old_names.py": "the old name of the page type read as the new one, before any view",
}


def faces() -> dict[str, str]:
    return {str(path.relative_to(WEBAPP)): path.read_text(encoding="utf-8")
            for folder in ("views", "web") for path in (WEBAPP / folder).rglob("*.py")}


def test_no_view_reads_the_request_but_through_the_one_mechanism():
    found = {name: RAW_READ.findall(text) for name, text in faces().items() if name not in READERS}
    assert len(found) > 40  # the walk saw the views and what they share
    assert {name: reads for name, reads in found.items() if reads} == {}
    assert all(RAW_READ.search((WEBAPP / name).read_text(encoding="utf-8")) for name in READERS)
