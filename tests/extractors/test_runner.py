"""The runner: every job gives one result, whatever its extractor does to its worker."""

from __future__ import annotations

import mmap
import multiprocessing
import subprocess
import sys
from pathlib import Path

import pytest
from corpora import READABILITY, READABILITY_PAGES
from extractor_fixtures import COUNT, CRASH, EXIT, HANG, HOG, KILL, MODEST, PROCESS, SYS_EXIT

from webapp.extractors.process_pool import Call, ExtractorPool
from webapp.extractors.registry import build_registry, runnable
from webapp.extractors.sandbox import INCOMPLETE_REASON

DATA = Path(__file__).resolve().parents[1] / "data" / "extractors"
ARTICLE = (DATA / "article.html").read_text(encoding="utf-8")
URL = "https://gazette.example/lighthouse"


def run_calls(calls, *, workers: int | None = None, timeout: float = 60.0):
    """The calls' results as they finish, on a pool of their own (a job worker shares one between its
    chunks): nothing starts until the first result is asked for; closing the generator ends the pool."""
    with ExtractorPool(workers, timeout) as pool:
        yield from pool.run(calls)


def by_key(results) -> dict:
    return {result.key: result for result in results}


@pytest.mark.slow
def test_failures_are_recorded_and_the_real_extractors_finish():
    registry = build_registry()
    failing = [HANG, CRASH, SYS_EXIT, EXIT, KILL, HOG]
    extractors = [*failing, registry["trafilatura"], registry["whole-page"], COUNT]
    jobs = [Call(extractor.name, extractor, ARTICLE, URL) for extractor in extractors]
    results = by_key(run_calls(jobs, workers=2, timeout=2))

    assert sorted(results) == sorted(e.name for e in extractors)
    errors = {key: result.error for key, result in results.items()}
    assert errors == {
        "hang": "timeout after 2 s",
        "crash": "ValueError: broken page",
        "call-sys-exit": "SystemExit: 5",
        "exit-worker": "worker crashed (exit code 3)",
        "kill-worker": "worker crashed (exit code -9, SIGKILL)",
        "hog-memory": "MemoryError",
        "trafilatura": None,
        "whole-page": None,
        "count-characters": None,
    }
    assert results["hang"].duration_ms == 2000
    assert "For forty-one winters, Ezra Pendeen" in results["trafilatura"].text
    assert results["trafilatura"].fingerprint == registry["trafilatura"].fingerprint
    assert results["count-characters"].text == f"{len(ARTICLE)} characters from {URL}"
    assert results["count-characters"].metadata == {"url": URL}
    assert results["count-characters"].extractor_name == "count-characters"
    assert not any(result.incomplete for result in results.values())
    assert all(result.text == "" for key, result in results.items() if errors[key])


def test_the_memory_cap_comes_on_top_of_what_the_parent_already_maps():
    reserved = mmap.mmap(-1, 3 * 1024**3)  # address space only, as a library's allocator arena reserves
    try:
        jobs = [Call("modest", MODEST, ARTICLE, URL), Call("hog", HOG, ARTICLE, URL)]
        results = by_key(run_calls(jobs, workers=1, timeout=30))
    finally:
        reserved.close()
    assert (results["modest"].error, results["modest"].text) == (None, str(256 * 1024**2))
    assert results["hog"].error == "MemoryError"


@pytest.mark.parametrize("workers", [1, 2])
def test_jobs_are_read_lazily_with_a_bounded_window(workers):
    pulled = []

    def jobs():
        for number in range(40):
            pulled.append(number)
            yield Call(number, COUNT, "x" * number, None)

    results = run_calls(jobs(), workers=workers)
    assert pulled == []  # a generator: nothing runs before iteration
    first = next(results)
    assert len(pulled) <= 1 + 4 * workers + 1  # the one done, those in flight, the next one read ahead
    rest = list(results)
    assert sorted(r.key for r in [first, *rest]) == list(range(40))
    assert all(r.text == f"{r.key} characters from None" for r in [first, *rest])


def test_a_warm_first_pool_keeps_one_call_at_a_time_to_one_process_and_starts_another_when_more_may_run():
    allowed = [1]
    with ExtractorPool(2, 60, warm_first=True) as pool:
        one_by_one = [result.text for result in pool.run((Call(n, PROCESS, "0", None) for n in range(6)),
                                                         lambda: allowed[0])]
        assert len(set(one_by_one)) == 1  # a shared queue gave them to the two processes in turn
        allowed[0] = 2
        together = [result.text for result in pool.run((Call(n, PROCESS, "30", None) for n in range(4)),
                                                       lambda: allowed[0])]
    assert one_by_one[0] in together and len(set(together)) == 2


def test_what_a_library_logs_or_warns_during_a_call_stays_out_of_the_terminal():
    """In a process of its own, as `goldtext extract` runs (pytest's own log and warning capture would hide it)."""
    script = ("from extractor_fixtures import LOGGING\n"
              "from webapp.extractors.process_pool import Call, ExtractorPool\n"
              "with ExtractorPool(1, 60) as pool:\n"
              "    (result,) = pool.run([Call('logging', LOGGING, '<p>x</p>', 'https://a.example/')])\n"
              "print(result.error, result.text)\n")
    ran = subprocess.run([sys.executable, "-c", script], cwd=Path(__file__).parents[1], capture_output=True,
                         text=True, timeout=120, check=True)
    assert ran.stdout == "None 8 characters from https://a.example/\n"
    assert ran.stderr == ""


def test_leaving_early_kills_the_calls_in_flight():
    jobs = [Call("count", COUNT, "x", None), Call("hang-1", HANG, "x", None), Call("hang-2", HANG, "x", None)]
    results = run_calls(jobs, workers=2, timeout=600)
    assert next(results).key == "count"
    results.close()
    assert multiprocessing.active_children() == []


def deep_page(depth: int) -> str:
    return (
        "<html><body><p>"
        + "Before the deep part. " * 20
        + "</p>"
        + "<div>" * depth
        + "deep"
        + "</div>" * depth
        + "<p>After the deep part.</p></body></html>"
    )


@pytest.mark.parametrize(
    ("depth", "incomplete"),
    [(200, False), (300_000, True)],
)
def test_libxml2_depth_truncation_marks_results_incomplete(depth, incomplete):
    registry = build_registry()
    jobs = [Call(name, registry[name], deep_page(depth), None) for name in ("whole-page", "trafilatura")]
    results = by_key(run_calls(jobs, workers=2))
    for result in results.values():
        assert result.error is None
        assert result.incomplete is incomplete
        assert ("incomplete_reason" in result.metadata) is incomplete
    assert ("After the deep part." in results["whole-page"].text) is not incomplete
    if incomplete:
        assert results["whole-page"].metadata["incomplete_reason"] == INCOMPLETE_REASON


@pytest.mark.slow
@pytest.mark.corpus(READABILITY)
@pytest.mark.xdist_group("readability-extracted")
def test_every_builtin_runs_over_the_real_corpus(readability_extracted):
    """Every runnable extractor on every page, as `goldtext extract` ran them (shared with test_shared_corpus)."""
    names = {extractor.name for extractor in runnable(build_registry())}
    rows = readability_extracted.stored()
    pages = {page.name for page in READABILITY_PAGES.iterdir() if page.is_dir()}
    assert sorted((page, name) for page, name, _ in rows) == sorted((page, name) for page in pages for name in names)
    errors = {(page, name): error for page, name, error in rows if error}
    # boilerpy3's own parser gives up on some real pages; it is the only one allowed to.
    assert {key: error for key, error in errors.items() if key[1] != "boilerpy3"} == {}
    assert all(error.startswith("HTMLExtractionError") for error in errors.values())
