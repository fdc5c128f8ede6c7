"""The checks of the gold before a gold set is published: each check on a hand-made case that fails it and
one that passes, then `goldtext check`, the Checks page, GET /api/checks, the queue's filter, and the
checks an upload's job runs after its extraction."""

from __future__ import annotations

import io
import json
from types import SimpleNamespace

import pytest
from app_settings import reconfigure
from sqlalchemy import select
from workbench import add_gold, csrf, make_page, sign_in

from webapp.annotation.annotations import save_annotation
from webapp.extractors.registry import build_registry
from webapp.models import Extraction, GoldCheck, GoldRevision, Job, Page
from webapp.scoring import gold_checks as checks

PAGE = """<html><head><title>Harbour news</title></head><body>
<nav><a href="/">Home</a> <a href="/news">News</a></nav>
<article><h1>The harbour opens a new quay</h1>
<p>The harbour opened a new quay for ferries this week, after two years of works.</p>
<p>Ferries to the islands will leave from the new quay from Monday on.</p>
<p>Write &lt;p&gt; to open a paragraph, as the guide to HTML says.</p></article>
<footer>Contact us</footer></body></html>"""
GOLD = ("The harbour opens a new quay\n"
        "The harbour opened a new quay for ferries this week, after two years of works.\n"
        "Ferries to the islands will leave from the new quay from Monday on.")


# --- each check on its own -------------------------------------------------------------------------------------

def test_low_scores_fail_only_when_every_extractor_is_below_the_threshold():
    assert checks.low_scores({"a": 0.2, "b": 0.49}, 0.5) == (
        "every extractor scores below 0.5 against the gold (best: b 0.490)")
    assert checks.low_scores({"a": 0.2, "b": 0.5}, 0.5) is None
    assert checks.low_scores({}, 0.5) is None  # nothing to judge by


@pytest.mark.parametrize("gold, found", [
    ("A paragraph</p>\nAnother", "'</p>'"),
    ('Read <a href="/x">more</a>', "'<a href=\"/x\">', '</a>'"),
    ("Fish &amp; chips &#8212; today", "'&amp;', '&#8212;'"),
    ("URL: http://example.com/page\nThe text", "'URL: http://example.com/page'"),
    ("<h>A heading\n<p>A paragraph", "'<h>', '<p>'"),
])
def test_markup_left_in_the_gold_is_named(gold, found):
    assert checks.markup(gold, "A paragraph Another") == f"markup left in the gold: {found}"


def test_markup_the_page_itself_shows_as_text_is_not_a_leftover():
    assert checks.markup("Write <p> to open a paragraph", "Write <p> to open a paragraph") is None
    assert checks.markup("Fish & chips, 3 < 4", "Fish & chips, 3 < 4") is None


def test_words_the_page_does_not_show_fail_beyond_the_tolerance():
    shown = "The harbour opened a new quay for ferries this week"
    assert checks.unknown_words("The harbour opened a new quay", shown, 0.02) is None
    assert checks.unknown_words("the HARBOUR opened", shown, 0.0) is None  # case is folded
    reason = checks.unknown_words("The harbuor opened a new quay for trains", shown, 0.02)
    assert reason == ("2 of the gold's 8 words (25.0%) are not in the page's visible text: 'harbuor', 'trains'")
    assert checks.unknown_words("The harbuor opened a new quay for ferries this week", shown, 0.1) is None  # 1 in 10


def test_a_gold_cut_inside_a_block_is_truncated():
    blocks = ["The harbour opens a new quay",
              "The harbour opened a new quay for ferries this week, after two years of works."]
    cut = "The harbour opens a new quay\nThe harbour opened a new quay for ferries"
    assert checks.truncated(cut, blocks, [], 0.3) == (
        "the gold ends with 'The harbour opened a new quay for ferries', cut inside the page's block "
        "'The harbour opened a new quay for ferries this week, after two years of works.'")
    assert checks.truncated("\n".join(blocks), blocks, [], 0.3) is None  # ends with a whole block
    assert checks.truncated("The harbour", ["The harbour opens"], [], 0.3) is None  # too short to tell a cut


def test_a_gold_much_shorter_than_every_extractor_is_truncated():
    long, longer = " ".join(["word"] * 20), " ".join(["word"] * 40)
    assert checks.truncated("five words of gold here", [], [long, longer], 0.3) == (
        "the gold has 5 words, fewer than 0.3 times the 20 of the shortest extractor text")
    assert checks.truncated("six words of gold here now", [], [long, longer], 0.3) is None  # 6 >= 0.3 * 20
    assert checks.truncated("five words of gold here", [], ["", "   "], 0.3) is None  # no text to compare


def test_a_type_at_odds_with_the_gold():
    assert checks.type_mismatch("error", False, "Page not found") == (
        "the type 'error' has no main content, but the gold has 3 words")
    assert checks.type_mismatch("article", True, "  \n") == "the type 'article' has main content, but the gold is empty"
    assert checks.type_mismatch("error", False, "") is None
    assert checks.type_mismatch("article", True, "Text") is None


PARAGRAPH = ("The harbour opened a new quay for ferries this week, after two years of works; "
             "ferries to the islands will leave from it from Monday on.")


def test_a_gold_that_holds_the_same_content_twice_in_another_form_repeats_text():
    listed = "- The harbour opened a new quay for ferries this week,\n- after two years of works;\n" \
             "- ferries to the islands will leave from it from Monday on."
    reason = checks.repeated_text(f"Harbour news\n{PARAGRAPH}\n{listed}", PARAGRAPH, 20)
    assert reason == ("26 of the gold's 54 words repeat content it already has, which the page shows once (first: "
                      "'the harbour opened a new quay for ferries this week after two years of works fer…', "
                      "words 3 and 29)")
    assert checks.repeated_text(f"Harbour news\n{PARAGRAPH}", PARAGRAPH, 20) is None
    twice = f"{PARAGRAPH}\n{PARAGRAPH}"
    assert checks.repeated_text(twice, twice, 20) is None  # the page shows it twice
    assert checks.repeated_text(f"{PARAGRAPH}\n{PARAGRAPH}", PARAGRAPH, 30) is None  # shorter than the threshold


def test_annotators_who_disagree_with_nobody_adjudicating():
    texts = {"bo": "the cat sat on the mat", "al": "a dog ran in the park"}
    assert checks.disagreement(texts, False, 0.8) == (
        "the annotators (al, bo) agree to text F1 0.167, below 0.8, and nobody adjudicated")
    assert checks.disagreement(texts, True, 0.8) is None  # a reviewer adjudicated
    assert checks.disagreement({"al": "same text", "bo": "same text"}, False, 0.8) is None
    assert checks.disagreement({"al": "one annotator"}, False, 0.8) is None


# --- stored pages ---------------------------------------------------------------------------------------------

def with_current_extractions(session, page, texts: dict[str, str]) -> None:
    """Extractions of the page by the current fingerprints of these registered extractors."""
    registry = build_registry()
    for name, text in texts.items():
        session.add(Extraction(page_id=page.id, extractor=name, fingerprint=registry[name].fingerprint, text=text,
                               accepted=True))
    session.commit()


NONE_SAID = {"title": None, "authors": None, "published": None}
"""An article's metadata gold that passes the metadata checks: each field annotated, none on the page."""


@pytest.fixture
def pages(session):
    """A good page, a page with markup and a typo in its gold whose extractors all miss, an error page whose
    gold has text, and a double-annotated page the annotators disagree on."""
    good = make_page(session, PAGE, url="https://news.example/good")
    with_current_extractions(session, good, {"trafilatura": GOLD, "whole-page": GOLD})
    add_gold(session, good, text=GOLD, page_type="article", status="done", author="ann", article_metadata=NONE_SAID)
    bad = make_page(session, PAGE, url="https://news.example/bad")
    with_current_extractions(session, bad, {"trafilatura": "Home News Contact us", "whole-page": "Home News"})
    add_gold(session, bad, text=GOLD.replace("ferries", "feries") + "</p>", page_type="article", status="done",
             author="ann", article_metadata=NONE_SAID)
    error = make_page(session, PAGE, url="https://news.example/error")
    add_gold(session, error, text=GOLD, page_type="error", status="done", author="ann")
    disputed = make_page(session, PAGE, url="https://news.example/disputed")
    for name, text in (("al", GOLD), ("bo", "Home News Contact us")):
        save_annotation(session, disputed, name, base_version=0, text=text, page_type="article", status="done")
    draft = make_page(session, PAGE, url="https://news.example/draft")
    add_gold(session, draft, text="", page_type="article", status="draft", author="ann")  # not checked: a draft
    session.commit()
    ids = tuple(SimpleNamespace(id=page.id) for page in (good, bad, error, disputed, draft))
    session.rollback()  # let go of the database (SQLite: the app's writes must not wait for the test)
    return ids


def test_goldtext_check_lists_each_failing_page_with_its_checks_and_reasons(pages, runner, session):
    good, bad, error, disputed, _ = pages
    result = runner.invoke(args=["check", "--format", "json"])
    assert result.exit_code == 1, result.output  # a page fails: a script can stop before publishing
    report = json.loads(result.output)
    assert report["pages"] == 4  # done gold, or two annotations; the draft is not checked
    assert [f["page_id"] for f in report["failing"]] == [bad.id, error.id, disputed.id]
    failed_bad, failed_error, failed_disputed = report["failing"]
    assert failed_bad["url"] == "https://news.example/bad"
    assert failed_bad["checks"] == ["low-scores", "markup", "unknown-words"]
    assert failed_bad["reasons"][0].startswith("every extractor scores below 0.5 against the gold (best: ")
    assert failed_bad["reasons"][1] == "markup left in the gold: '</p>'"
    assert "'feries'" in failed_bad["reasons"][2]
    assert failed_error == {"page_id": error.id, "url": "https://news.example/error", "checks": ["type-mismatch"],
                            "reasons": ["the type 'error' has no main content, but the gold has 34 words"]}
    assert failed_disputed["checks"] == ["disagreement"]
    kept = session.execute(select(GoldCheck.page_id, GoldCheck.name).order_by(GoldCheck.page_id, GoldCheck.name)).all()
    assert kept == [(bad.id, "low-scores"), (bad.id, "markup"), (bad.id, "unknown-words"),
                    (error.id, "type-mismatch"), (disputed.id, "disagreement")]
    session.rollback()  # let go of the database (SQLite: the command's write must not wait for us)

    table = runner.invoke(args=["check"])
    assert table.exit_code == 1, table.output
    assert table.output.splitlines()[-1] == (
        "3 of 4 pages fail a check; low-scores: 1; markup: 1; unknown-words: 1; type-mismatch: 1; disagreement: 1.")


def test_thresholds_are_settings(pages, runner, app):
    reconfigure(app, CHECK_LOW_SCORE=0.0, CHECK_UNKNOWN_WORDS=0.5, CHECK_MIN_AGREEMENT=0.0)
    report = json.loads(runner.invoke(args=["check", "--format", "json"]).output)
    assert [f["checks"] for f in report["failing"]] == [["markup"], ["type-mismatch"]]


def test_a_run_replaces_what_it_found_before_on_the_pages_it_checks(pages, runner, session):
    _, bad, _, _, _ = pages
    runner.invoke(args=["check"])
    add_gold(session, session.get(Page, bad.id), text=GOLD, page_type="article", status="done", author="ann",
             article_metadata=NONE_SAID)
    session.commit()
    result = runner.invoke(args=["check", "--page", str(bad.id), "--format", "json"])
    assert json.loads(result.output) == {"pages": 1, "failing": [
        {"page_id": bad.id, "url": "https://news.example/bad", "checks": ["low-scores"],
         "reasons": [json.loads(result.output)["failing"][0]["reasons"][0]]}]}
    names = set(session.scalars(select(GoldCheck.name).where(GoldCheck.page_id == bad.id)))
    session.rollback()
    assert names == {"low-scores"}  # the markup and the typo are fixed; the extractors still miss
    assert runner.invoke(args=["check"]).exit_code == 1  # the other pages still fail


def test_the_checks_page_the_api_and_the_queue_show_the_kept_failures(pages, runner, client):
    good, bad, error, disputed, _ = pages
    runner.invoke(args=["check"])
    api = client.get("/api/checks").get_json()
    assert api["pages"] == 4 and [f["page_id"] for f in api["failing"]] == [bad.id, error.id, disputed.id]
    page = client.get("/checks").get_data(as_text=True)
    assert "3 of 4 checked pages fail a check." in page
    assert "markup left in the gold: &#39;&lt;/p&gt;&#39;" in page  # escaped, never markup
    assert 'href="/?check=markup">1</a>' in page
    queue = client.get("/?check=any").get_data(as_text=True)
    shown = {p.id for p in (good, bad, error, disputed) if f'href="/pages/{p.id}?check=any"' in queue}
    assert shown == {bad.id, error.id, disputed.id}
    only_type = client.get("/?check=type-mismatch").get_data(as_text=True)
    assert f'href="/pages/{error.id}?check=type-mismatch"' in only_type
    assert f'href="/pages/{bad.id}?check=type-mismatch"' not in only_type


def test_the_button_runs_the_checks_as_an_audited_job(pages, client, session, run_jobs):
    _, bad, error, disputed, _ = pages
    response = client.post("/checks/run", data={"csrf_token": csrf(client)})
    assert response.status_code == 302
    job_id = int(response.location.rsplit("/", 1)[1])
    assert run_jobs() == [job_id]
    job = session.get(Job, job_id)
    assert (job.kind, job.status, job.done, job.total) == ("check", "done", 4, 4)
    assert job.started_by == "local"
    assert {p for p, in session.execute(select(GoldCheck.page_id))} == {bad.id, error.id, disputed.id}
    session.rollback()
    assert client.post("/checks/run").status_code == 400  # no CSRF token: refused
    assert "check" in client.get("/audit").get_data(as_text=True)


def test_an_upload_is_checked_after_its_extraction(app, client, session, run_jobs):
    reconfigure(app, UPLOAD_EXTRACTORS=["whole-page"], EXTRACT_PROCESSES=1)
    files = [(io.BytesIO(PAGE.encode()), "harbour.html"),
             (io.BytesIO(b"The harbour opens a new quay &amp; more</p>\n"), "harbour.gold.txt")]
    client.post("/upload", data={"csrf_token": csrf(client), "format": "auto", "site_from": "url", "files": files},
                content_type="multipart/form-data")
    run_jobs()
    job = session.scalars(select(Job).where(Job.kind == "upload")).one()
    assert job.status == "done" and job.result["failing_checks"] == 1
    assert set(session.scalars(select(GoldCheck.name))) >= {"markup", "truncated"}


# --- the checks follow the gold ----------------------------------------------------------------------------------

def _save(client, token, page_id, text, version, save_id):
    body = {"text": text, "type": "article", "status": "done", "version": version, "client_save_id": save_id,
            "metadata": NONE_SAID}
    return client.post(f"/api/pages/{page_id}/gold", json=body, headers={"X-CSRF-Token": token})


def _follow_ups(session) -> list[dict]:
    found = [job.params for job in session.scalars(select(Job).where(Job.kind == "check").order_by(Job.id))]
    session.rollback()
    return found


@pytest.mark.settings(CHECK_DELAY_SECONDS=30)
def test_saves_in_a_burst_queue_one_check_that_reaches_the_workers_after_the_delay(app, client, session, run_jobs):
    from webapp.jobs.broker import broker
    from webapp.models import GoldCheckRun

    page_id = make_page(session, html=PAGE).id
    session.commit()
    token = sign_in(client, "Ann")
    for version in range(3):
        assert _save(client, token, page_id, GOLD + "</p>" * version, version, f"s{version}").status_code == 200
    assert _follow_ups(session) == [{"follow": True, "delay": 30.0}]
    huey = broker(app).huey
    [message] = huey.pending()
    assert message.eta is not None  # sent to run 30 s later: a worker taking it early puts it on the schedule
    run_jobs()
    run = session.get(GoldCheckRun, page_id)
    assert (run.gold_version, run.annotation_revision) == (3, None)
    assert set(session.scalars(select(GoldCheck.name).where(GoldCheck.page_id == page_id))) == {"markup"}
    session.rollback()
    # once it has run, the next change queues another; a restore is a change
    first = session.scalar(select(GoldRevision.id).where(GoldRevision.version == 1))
    session.rollback()
    client.post(f"/pages/{page_id}/history/{first}/restore", data={"csrf_token": token})
    assert len(_follow_ups(session)) == 2
    run_jobs()
    assert not session.scalars(select(GoldCheck).where(GoldCheck.page_id == page_id)).all()


def test_importing_gold_queues_its_checks(app, runner, session, tmp_path, run_jobs):
    (tmp_path / "quay.html").write_text(PAGE)
    (tmp_path / "quay.gold.txt").write_text(GOLD + "\n&amp;")
    assert runner.invoke(args=["import", str(tmp_path)]).exit_code == 0
    assert [p["follow"] for p in _follow_ups(session)] == [True]
    run_jobs()
    assert "markup" in set(session.scalars(select(GoldCheck.name)))
