"""Where the shared real-page corpora are: the folder `shared/corpora` beside the checkout, or the one
named by GOLDTEXT_SHARED_CORPORA. Tests reading them carry `@pytest.mark.corpus("FOLDER", ...)`
(see conftest.py)."""

from __future__ import annotations

import os
from pathlib import Path

CORPORA = Path(os.environ.get("GOLDTEXT_SHARED_CORPORA") or Path(__file__).resolve().parents[2] / "shared" / "corpora")
READABILITY = "readability-test-pages"
READABILITY_PAGES = CORPORA / READABILITY
WCXB = "wcxb-dev-sample"
WCXB_SAMPLE = CORPORA / WCXB
WEBMAINBENCH = "webmainbench-sample"
WEBMAINBENCH_SAMPLE = CORPORA / WEBMAINBENCH
