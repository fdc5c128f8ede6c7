"""User-defined variants: options read and checked against what the base accepts, stored with a fingerprint
that follows the options, run and scored like a built-in through the commands, and managed from the browser."""

from __future__ import annotations

import inspect
import json

import pytest
from corpora import READABILITY, READABILITY_PAGES
from sqlalchemy import func, select
from workbench import csrf

from webapp.cli.extract_commands import start_extraction
from webapp.extractors.extraction_service import current_extractors
from webapp.extractors.options import BadOption, parse_options, settable
from webapp.extractors.registry import UnknownExtractor, build_registry
from webapp.extractors.variants import BadVariant, add_variant, remove_variant, stored_variant, with_variants
from webapp.jobs.runner import Runner
from webapp.jobs.workers import _next_chunk, job_state, run_here
from webapp.models import Extraction, ExtractorVariant

REGISTRY = build_registry()
TRAFILATURA = REGISTRY["trafilatura"]


def variants(session) -> int:
    return session.scalar(select(func.count()).select_from(ExtractorVariant))

# --- options --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("base", "pair", "option", "value"),
    [
        ("trafilatura", "favor_precision=true", "favor_precision", True),
        ("trafilatura", "fast=FALSE", "fast", False),
        ("justext", "max_heading_distance=150", "max_heading_distance", 150),
        ("trafilatura", 'prune_xpath=//div[@class="ad-slot"]', "prune_xpath", '//div[@class="ad-slot"]'),
        ("trafilatura", "target_language=true", "target_language", "true"),  # a string option keeps the string
        ("trafilatura", "prune_xpath=//a[@x='1=2']", "prune_xpath", "//a[@x='1=2']"),  # split at the first '='
        ("justext", "stopwords_low=0.25", "stopwords_low", 0.25),
        ("justext", "stopwords_low=1", "stopwords_low", 1.0),
        ("justext", "length_low= 50 ", "length_low", 50),
        ("readability", "retry_length=100", "retry_length", 100),
    ],
)
def test_an_option_is_read_as_the_type_its_base_takes(base, pair, option, value):
    parsed = parse_options(REGISTRY[base], [pair])
    assert parsed == {option: value}
    assert type(parsed[option]) is type(value)


@pytest.mark.parametrize(
    ("base", "pair", "message"),
    [
        ("trafilatura", "favor_precision=yes", "option 'favor_precision' takes true or false, not 'yes'"),
        ("justext", "length_high=big", "option 'length_high' takes an integer, not 'big'"),
        ("justext", "stopwords_low=low", "option 'stopwords_low' takes a number, not 'low'"),
        ("trafilatura", "favour_precision=true",
         "trafilatura has no option 'favour_precision' (its options: deduplicate, fast, favor_precision, "
         "favor_recall, include_tables, prune_xpath, target_language)"),
        ("trafilatura", "include_comments=true", "trafilatura has no option 'include_comments'"),
        ("site-rules", "rules=x", "site-rules has no option 'rules' (its options: none)"),
        ("trafilatura", "favor_precision", "option 'favor_precision' is not NAME=VALUE"),
        ("trafilatura", "=true", "option '=true' is not NAME=VALUE"),
    ],
)
def test_a_bad_option_is_refused_naming_it(base, pair, message):
    with pytest.raises(BadOption) as caught:
        parse_options(REGISTRY[base], [pair])
    assert str(caught.value).startswith(message)


def test_an_extractor_without_annotations_takes_any_scalar_read_in_order():
    from extractor_fixtures import fixture

    def plain(html, url, flag=False, size=1, ratio=0.5, label="x"):
        raise AssertionError("not run")

    extractor = fixture(plain)
    assert settable(extractor) == {name: (bool, int, float, str) for name in ("flag", "size", "ratio", "label")}
    assert parse_options(extractor, ["flag=True", "size=7", "ratio=0.75", "label=7a"]) == {
        "flag": True, "size": 7, "ratio": 0.75, "label": "7a"}


# --- stored variants --------------------------------------------------------------------------------------


def test_a_variant_is_its_base_with_its_options_and_a_fingerprint_of_its_own(session):
    variant = add_variant(session, REGISTRY, "tight", "trafilatura-precision", ["prune_xpath=//aside", "fast=true"])
    session.commit()
    assert variant.func is TRAFILATURA.func and variant.version == TRAFILATURA.version
    assert dict(variant.options) == {"favor_precision": True, "prune_xpath": "//aside", "fast": True}
    options = '{"fast":true,"favor_precision":true,"prune_xpath":"//aside"}'
    assert variant.fingerprint == f"tight|{TRAFILATURA.version}|{options}"
    assert variant.description == "variant of trafilatura-precision: fast=true prune_xpath=//aside"
    known = with_variants(session, REGISTRY)
    assert list(known) == [*REGISTRY, "tight"]
    assert known["tight"] == variant
    [stored] = current_extractors(session, REGISTRY, ("tight",))
    assert stored.fingerprint == variant.fingerprint
    assert "tight" in [e.name for e in current_extractors(session, REGISTRY)]  # "every extractor" includes it


def test_the_fingerprint_changes_when_the_options_change(session):
    first = add_variant(session, REGISTRY, "tight", "trafilatura", ["favor_precision=true"]).fingerprint
    remove_variant(session, "tight")
    second = add_variant(session, REGISTRY, "tight", "trafilatura", ["favor_precision=false"]).fingerprint
    remove_variant(session, "tight")
    again = add_variant(session, REGISTRY, "tight", "trafilatura", ["favor_precision=true"]).fingerprint
    assert first != second and first == again


@pytest.mark.parametrize(
    ("name", "base", "pairs", "message"),
    [
        ("Tight", "trafilatura", ["fast=true"], "variant name 'Tight' is not 1 to 64 lower-case letters"),
        ("a b", "trafilatura", ["fast=true"], "variant name 'a b' is not"),
        ("x" * 65, "trafilatura", ["fast=true"], "variant name 'xxx"),
        ("density", "trafilatura", ["fast=true"], "an extractor named 'density' already exists"),
        ("tight", "goose", ["fast=true"], "unknown base extractor 'goose' (known: "),
        ("tight", "trafilatura", [], "a variant needs at least one option NAME=VALUE"),
        ("tight", "trafilatura", ["fast=maybe"], "option 'fast' takes true or false, not 'maybe'"),
    ],
)
def test_a_variant_that_cannot_be_stored_says_why_and_stores_nothing(session, name, base, pairs, message):
    with pytest.raises(BadVariant) as caught:
        add_variant(session, REGISTRY, name, base, pairs)
    assert str(caught.value).startswith(message)
    session.rollback()
    assert variants(session) == 0


def test_a_stored_variant_whose_base_is_gone_or_changed_is_listed_unavailable(session):
    session.add_all([ExtractorVariant(name="orphan", base="goldtext-gone", options={"x": 1}),
                     ExtractorVariant(name="stale", base="trafilatura", options={"removed_option": True})])
    session.commit()
    known = with_variants(session, REGISTRY)
    assert known["orphan"].unavailable_reason == "its base extractor 'goldtext-gone' is not registered"
    assert known["stale"].unavailable_reason.startswith("trafilatura has no option 'removed_option'")
    assert "orphan" not in [e.name for e in current_extractors(session, REGISTRY)]
    with pytest.raises(UnknownExtractor, match="orphan is unavailable: its base extractor"):
        current_extractors(session, REGISTRY, ("orphan",))


# --- through the commands: stored, run, scored, compared --------------------------------------------------

PARAGRAPH = ("The harbour board met on Tuesday to settle the timetable of the night ferry, which will sail "
             "again from Monday after a winter of repairs to its engines, its galley and its cabins. ")
NOTE = ("Readers of the gazette may also enjoy our weekly walking tours of the old harbour, which leave the quay "
        "every Sunday at ten.")
STORY = ("<html><head><title>Night ferry</title></head><body><nav><a href='/'>Home</a></nav><article>"
         "<h1>Night ferry returns</h1>"
         + "".join(f"<p>{PARAGRAPH}Paragraph {n}.</p>"
                   + (f'<div class="house-note"><p>{NOTE}</p></div>' if n == 1 else "") for n in range(4))
         + "</article><footer>Copyright Harbour Gazette</footer></body></html>")
GOLD = "Night ferry returns\n" + "\n".join(f"{PARAGRAPH}Paragraph {n}." for n in range(4))



@pytest.fixture
def ferry(cli, tmp_path):
    folder = tmp_path / "pages"
    folder.mkdir()
    (folder / "ferry.html").write_text(STORY)
    (folder / "ferry.gold.txt").write_text(GOLD)
    (folder / "ferry.url").write_text("https://gazette.example/ferry")
    assert "1 imported" in cli("import", str(folder))


def test_a_variant_added_by_the_command_is_run_scored_and_compared_like_a_builtin(cli, runner, session, ferry):
    added = cli("extractors", "add", "no-notes", "--base", "trafilatura",
                "--option", 'prune_xpath=//div[@class="house-note"]')
    assert added.startswith('variant no-notes saved: no-notes|')
    assert "run it with `goldtext extract --extractor no-notes`" in added
    listed = cli("extractors", "list").splitlines()
    assert listed[-1].split()[:2] == ["no-notes", "trafilatura"]
    assert listed[-1].endswith("""variant of trafilatura: 'prune_xpath=//div[@class="house-note"]'""")
    assert cli("extractors").splitlines() == listed  # `extractors` alone lists

    assert "2 done, 0 errors" in cli("extract", "--extractor", "no-notes", "--extractor", "trafilatura")
    session.expire_all()
    texts = {row.extractor: row.text for row in session.scalars(select(Extraction))}
    assert texts["no-notes"] == GOLD and NOTE in texts["trafilatura"]

    # tokens: gold 3 + 4 x 35 = 143 words; trafilatura keeps the note's 23 more: P 143/166, R 1, F1 286/309.
    scored = json.loads(cli("score", "--extractor", "no-notes", "--extractor", "trafilatura", "--bootstrap", "0",
                            "--format", "json"))
    figures = {name: (row["precision"], row["recall"], row["f1"]) for name, row in scored["extractors"].items()}
    assert figures["no-notes"] == pytest.approx((1.0, 1.0, 1.0))
    assert figures["trafilatura"] == pytest.approx((143 / 166, 1.0, 286 / 309))

    compared = json.loads(cli("compare", "no-notes", "trafilatura", "--bootstrap", "0", "--format", "json"))
    assert (compared["wins"], compared["losses"], compared["ties"]) == (1, 0, 0)

    assert cli("extractors", "remove", "no-notes") == "variant no-notes removed\n"
    assert "no-notes" not in cli("extractors", "list")
    failed = runner.invoke(args=["extractors", "remove", "no-notes"])
    assert failed.exit_code == 1 and "no variant named 'no-notes'" in failed.output


def test_a_variant_removed_while_a_job_runs_it_is_skipped_and_the_job_finishes(app, cli, session, ferry):
    cli("extractors", "add", "no-notes", "--base", "trafilatura", "--option", 'prune_xpath=//div[@class="x"]')
    with app.app_context():
        job_id = start_extraction(("no-notes", "trafilatura"))
    runner = Runner(app, 1).start()
    try:
        assert runner.run_chunk(_next_chunk(app, job_id)) is not None  # the plan: the variant's pair (the
        # import extracted trafilatura already)
    finally:
        runner.close()
    assert cli("extractors", "remove", "no-notes") == "variant no-notes removed\n"
    assert run_here(app, job_id, 1) == "done"
    assert job_state(app, job_id)[1:4] == (1, 1, 0)  # done, total, errors
    session.expire_all()
    assert [row.extractor for row in session.scalars(select(Extraction))] == ["trafilatura"]


def test_a_variant_stored_meanwhile_by_another_request_is_refused_and_the_transaction_goes_on(
        session, monkeypatch):
    from webapp.extractors import variants as module

    add_variant(session, REGISTRY, "first", "trafilatura", ["fast=true"])
    session.commit()
    add_variant(session, REGISTRY, "second", "trafilatura", ["fast=true"])
    # the name check passed before the other request's row was committed: only the database's unique
    # constraint sees the clash
    monkeypatch.setattr(module, "with_variants", lambda session, registry: dict(registry))
    with pytest.raises(BadVariant, match="an extractor named 'first' already exists"):
        add_variant(session, REGISTRY, "first", "justext", ["length_low=50"])
    session.commit()
    assert sorted(session.scalars(select(ExtractorVariant.name))) == ["first", "second"]
    assert session.scalar(select(ExtractorVariant.base).where(ExtractorVariant.name == "first")) == "trafilatura"


def test_the_command_refuses_a_bad_option_naming_it(runner, session):
    result = runner.invoke(args=["extractors", "add", "eager", "--base", "trafilatura", "--option", "favor_recal=true"])
    assert result.exit_code == 1
    assert "Error: trafilatura has no option 'favor_recal' (its options: " in result.output
    assert variants(session) == 0


def test_the_leaderboard_and_head_to_head_show_a_variant(app, cli, client, ferry):
    cli("extractors", "add", "no-notes", "--base", "trafilatura", "--option", 'prune_xpath=//div[@class="house-note"]')
    cli("extract", "--extractor", "no-notes", "--extractor", "trafilatura")
    board = client.get("/api/leaderboard", query_string={"bootstrap": 0, "extractor": ["no-notes", "trafilatura"]})
    assert board.status_code == 200
    assert board.get_json()["extractors"]["no-notes"]["f1"] == pytest.approx(1.0)
    page = client.get("/leaderboard/compare?a=no-notes&b=trafilatura").get_data(as_text=True)
    assert "A wins 1, loses 0, ties 0" in page


# --- from the browser -------------------------------------------------------------------------------------


def test_the_extractors_page_lists_every_extractor_and_says_why_one_is_unavailable(client, plugin_dist):
    plugin_dist(
        "from webapp.extractors.base import Extractor\n"
        "def never(html, url):\n    raise AssertionError\n"
        "GHOST = Extractor('ghost', 'ghost-lib not installed', never, {}, 'needs ghost-lib', "
        "'ghost-lib is not installed: pip install <ghost-lib>')\n",
        "goldtext.extractors", ["ghost = goldtext_fake_plugin:GHOST"])
    html = client.get("/extractors").get_data(as_text=True)
    for name in build_registry():
        assert f'data-extractor="{name}"' in html
    assert "Unavailable: ghost-lib is not installed: pip install &lt;ghost-lib&gt;" in html


def test_a_variant_is_added_and_removed_from_the_browser(client, session):
    token = csrf(client)
    sent = {"name": "no-notes", "base": "trafilatura",
            "options": 'favor_precision=true\r\nprune_xpath=//div[@class="<b>note</b>"]\r\n', "csrf_token": token}
    response = client.post("/extractors/variants", data=sent)
    assert response.status_code == 302
    [stored] = session.scalars(select(ExtractorVariant)).all()
    assert (stored.name, stored.base, stored.options) == (
        "no-notes", "trafilatura", {"favor_precision": True, "prune_xpath": '//div[@class="<b>note</b>"]'})
    html = client.get("/extractors").get_data(as_text=True)
    assert "Variant no-notes saved" in html
    assert "&lt;b&gt;note&lt;/b&gt;" in html and "<b>note</b>" not in html

    session.rollback()
    response = client.post("/extractors/variants/no-notes/remove", data={"csrf_token": token})
    assert response.status_code == 302
    assert variants(session) == 0
    session.rollback()
    assert client.post("/extractors/variants/no-notes/remove", data={"csrf_token": token}).status_code == 404


def test_the_browser_form_keeps_what_was_sent_and_names_the_bad_option(client, session):
    token = csrf(client)
    response = client.post("/extractors/variants", data={"name": "eager", "base": "justext",
                                                          "options": "length_low=short", "csrf_token": token})
    assert response.status_code == 400
    html = response.get_data(as_text=True)
    assert "option &#39;length_low&#39; takes an integer, not &#39;short&#39;" in html
    assert 'value="eager"' in html and ">length_low=short</textarea>" in html
    assert '<option value="justext" selected>' in html
    assert variants(session) == 0


# --- options that could never run or that would swamp a listing ------------------------------

TEXT_VALUES = {"target_language": "en", "prune_xpath": "//nav", "positive_keywords": "article",
               "negative_keywords": "comment", "language": "en", "parser_class": "soup",
               "table_cell_separator": " | ", "html_type": "forum", "page_type": "forum",
               "focus": "favor-recall", "candidate_select_mode": "dom-smoothie", "include_replies": "none"}
"""A meaningful value, other than the default, of every text option of a built-in extractor."""


def other_value(name: str, page_type: type, default):
    """A value of the option other than its default, as a user would set it."""
    if page_type is bool:
        return not default
    if page_type is int:
        return 1000 if default is None else default + 1
    if page_type is float:
        return round((default or 0.0) + 0.05, 2)
    assert name in TEXT_VALUES, f"give the text option {name!r} a value in TEXT_VALUES"
    return TEXT_VALUES[name]


@pytest.mark.slow
@pytest.mark.corpus(READABILITY)
def test_every_offered_option_of_every_builtin_extractor_runs_on_a_real_page():
    html = (READABILITY_PAGES / "001" / "source.html").read_text(encoding="utf-8")
    failed, ran = [], set()
    for extractor in REGISTRY.values():
        if not extractor.available:
            continue
        defaults = {p.name: p.default for p in inspect.signature(extractor.func).parameters.values()}
        for name, page_types in settable(extractor).items():
            options = {**extractor.options, name: other_value(name, page_types[0], defaults[name])}
            try:
                result = extractor.func(html, "https://nicolas.perriault.net/code/2013/get-your-frontend", **options)
            except Exception as error:  # what a job would record as the pair's error
                failed.append(f"{extractor.name} {name}={options[name]!r}: {type(error).__name__}: {error}")
                continue
            assert isinstance(result.text, str)
            ran.add(extractor.name)
    assert not failed, "\n".join(failed)
    assert {"trafilatura", "readability", "justext"} <= ran


@pytest.mark.parametrize("value", ["nan", "NaN", "inf", "-inf", "Infinity"])
def test_a_number_option_that_is_not_finite_is_refused(session, value):
    with pytest.raises(BadVariant) as caught:
        add_variant(session, REGISTRY, "odd", "justext", [f"stopwords_low={value}"])
    assert str(caught.value) == (
        f"option 'stopwords_low' takes a number (a finite one: nan and inf are refused), not {value!r}")
    session.rollback()
    assert variants(session) == 0


def test_a_variant_stored_with_an_option_that_is_not_finite_is_unavailable():
    """SQLite's JSON took a NaN before options were checked (PostgreSQL's refuses it)."""
    row = ExtractorVariant(name="odd", base="justext", options={"stopwords_low": float("nan")})
    odd = stored_variant(row, REGISTRY)
    assert not odd.available and "option 'stopwords_low' takes a number, not nan" in odd.unavailable_reason


def test_an_option_value_over_1000_characters_is_refused_naming_it(session):
    with pytest.raises(BadVariant) as caught:
        add_variant(session, REGISTRY, "huge", "trafilatura", ["prune_xpath=//div" + "[1]" * 300_000])
    assert str(caught.value) == "option 'prune_xpath' is 900,005 characters long; a value has at most 1,000"
    session.rollback()
    assert variants(session) == 0
    add_variant(session, REGISTRY, "long", "trafilatura", ["prune_xpath=//div" + "[1]" * 331 + "/p"])  # 1,000
    assert variants(session) == 1


def test_the_extractors_page_cuts_a_long_option_value_and_a_refusal_quotes_little_of_it(client, session):
    long_xpath = "//div" + "[1]" * 300_000
    session.add(ExtractorVariant(name="stored-long", base="trafilatura", options={"prune_xpath": long_xpath}))
    session.commit()
    listing = client.get("/extractors").get_data(as_text=True)
    assert len(listing) < 50_000
    assert "prune_xpath=//div[1][1]" in listing and "(900,005 characters)" in listing

    token = csrf(client)
    response = client.post("/extractors/variants", data={"name": "x" * 100_000, "base": "trafilatura",
                                                          "options": "fast=true", "csrf_token": token})
    assert response.status_code == 400
    message = response.get_data(as_text=True).split('id="variant-error">')[1].split("</p>")[0]
    assert message.startswith("variant name &#39;xxx") and "(100,002 characters)" in message
    assert len(message) < 400
