"""Import from the browser, in Chromium: the report opened while the upload's job is still queued shows
what was imported once the job has run, however quickly it ran (no poll ever saw its import stage)."""

from __future__ import annotations

import pytest
from app_settings import reconfigure
from browser_fixtures import until

pytestmark = pytest.mark.browser

PAGE = "<html><head><title>Quay {n}</title></head><body><article><p>Quay {n} opened.</p></article></body></html>"


def test_the_report_of_a_quick_import_shows_what_was_imported(app, live_server, context, run_jobs, tmp_path):
    reconfigure(app, UPLOAD_EXTRACTORS=["whole-page"], EXTRACT_PROCESSES=1)
    files = []
    for n in (1, 2):
        files.append(tmp_path / f"quay-{n}.html")
        files[-1].write_text(PAGE.format(n=n))
    tab = context.new_page()
    tab.set_viewport_size({"width": 1366, "height": 768})
    tab.goto(f"{live_server}/upload")
    tab.set_input_files("input[type=file]", [str(path) for path in files])
    tab.get_by_role("button", name="Import").click()
    tab.wait_for_url("**/upload/1")
    assert "0 imported, 0 duplicate" in tab.inner_text("main")  # the job has not run yet
    with tab.expect_navigation():  # the report reloads itself once the job is past its import
        assert run_jobs() == [1]
    assert "2 imported, 0 duplicate" in tab.inner_text("main")
    until(tab, "document.querySelector('#job .job-text').textContent.startsWith('done')")
    assert tab.locator("table.report tbody tr").count() == 2
