"""The `goldtext` commands beyond import: extractors, extract, rules, demo and db, on the real database."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest
from extractor_fixtures import installed
from sqlalchemy import func, inspect, select

from webapp.extractors.registry import build_registry, runnable
from webapp.foundation.engine import make_engine
from webapp.models import Base, Extraction, ImportBatch, Page

BUILTINS = ["trafilatura", "trafilatura-precision", "trafilatura-recall", "trafilatura-fast", "density",
            "readability", "justext", "boilerpy3", "whole-page", "site-rules", "resiliparse", "newspaper4k", "goose3",
            "html-text", "inscriptis", "magic-html", "readability-js", "rs-trafilatura", "dom-smoothie", "defuddle",
            "go-trafilatura", "go-domdistiller", "htmldate-fast", "htmldate-extensive", "page-signals"]
RUNNABLE = [extractor.name for extractor in runnable(build_registry())]
"""What `goldtext extract` runs by default: the built-ins whose packages (and Node.js, the Go and Rust programs,
magic-html's Python) are installed here."""
PARAGRAPH = ("The harbour board met on Tuesday to settle the timetable of the night ferry, which will sail "
             "again from Monday after a winter of repairs to its engines, its galley and its cabins. ")
STORY = (
    "<html><head><title>{title}</title></head><body><nav><a href='/'>Home</a> <a href='/news'>News</a></nav>"
    "<article><h1>{title}</h1>"
    + "".join(f"<p>{PARAGRAPH * 2}Paragraph {n}.</p>" for n in range(4))
    + "</article><footer>Copyright Harbour Gazette</footer></body></html>"
)
PAGES = {
    "ferry.html": STORY.format(title="Night ferry returns"),
    "quay.html": STORY.format(title="The quay is rebuilt"),
    "short.html": "<html><body><p>Closed today.</p></body></html>",
    "index.json": json.dumps({"ferry": "https://gazette.example/ferry", "quay": "https://gazette.example/quay",
                              "short": "https://notices.example/short"}),
}


@pytest.fixture
def cli(runner, session):
    """Run `goldtext ARGS`; the test's session lets go of the database first (SQLite's BEGIN IMMEDIATE)."""

    def invoke(*args: str):
        session.rollback()
        return runner.invoke(args=list(args))

    return invoke


@pytest.fixture
def pages(cli, tmp_path) -> Path:
    root = tmp_path / "pages"
    root.mkdir()
    for name, content in PAGES.items():
        (root / name).write_text(content)
    result = cli("import", str(root))
    assert result.exit_code == 0 and "3 imported" in result.output, result.output
    return root


def extractions(session) -> dict[tuple[str, str], Extraction]:
    """(page file, extractor) -> its extraction."""
    session.expire_all()
    rows = session.execute(select(Page.source_name, Extraction).join(Extraction.page)).all()
    return {(name.removesuffix(".html"), row.extractor): row for name, row in rows}


def count(session, model) -> int:
    return session.scalar(select(func.count()).select_from(model))


def succeed(result) -> str:
    assert result.exit_code == 0, result.output
    return result.output


# --- extractors ----------------------------------------------------------------------------------


def test_extractors_lists_every_builtin_with_its_version(cli):
    output = succeed(cli("extractors"))
    listed = [line.split()[0] for line in output.splitlines()]
    assert listed == BUILTINS
    for extractor in build_registry().values():
        assert re.search(rf"^{re.escape(extractor.name)} +{re.escape(extractor.version)} ", output, re.M)


# --- extract -------------------------------------------------------------------------------------


def test_extract_stores_one_extraction_per_page_and_extractor_with_the_guard_verdict(cli, session, pages):
    output = succeed(cli("extract", "--extractor", "whole-page", "--extractor", "density"))
    assert "6 extractions in " in output and "6 done, 0 errors" in output
    rows = extractions(session)
    assert set(rows) == {(p, e) for p in ("ferry", "quay", "short") for e in ("whole-page", "density")}
    verdicts = {key: (row.accepted, row.guard_reason, row.error) for key, row in rows.items()}
    assert verdicts == {
        **{(p, e): (True, None, None) for p in ("ferry", "quay") for e in ("whole-page", "density")},
        ("short", "whole-page"): (False, "too short", None),
        ("short", "density"): (False, "too short", None),
    }
    assert rows["ferry", "density"].fingerprint == build_registry()["density"].fingerprint
    assert "Home News" in rows["ferry", "whole-page"].text.splitlines()
    assert "Home News" not in rows["ferry", "density"].text


@pytest.mark.slow
def test_every_builtin_runs_by_default(cli, session, pages):
    output = succeed(cli("extract"))
    assert f"{3 * len(RUNNABLE)} extractions in " in output
    assert set(extractions(session)) == {(p, e) for p in ("ferry", "quay", "short") for e in RUNNABLE}


def test_a_second_run_computes_nothing_and_force_recomputes(cli, session, pages):
    succeed(cli("extract", "--extractor", "density"))
    before = {key: (row.id, row.created_at) for key, row in extractions(session).items()}
    assert "0 extractions in " in succeed(cli("extract", "--extractor", "density"))
    assert {key: (row.id, row.created_at) for key, row in extractions(session).items()} == before
    assert "3 extractions in " in succeed(cli("extract", "--extractor", "density", "--force"))
    assert {key: row.id for key, row in extractions(session).items()} == {k: v[0] for k, v in before.items()}
    assert count(session, Extraction) == 3


def test_site_restricts_to_that_hosts_pages(cli, session, pages):
    output = succeed(cli("extract", "--extractor", "whole-page", "--site", "notices.example"))
    assert "1 extractions in " in output
    assert set(extractions(session)) == {("short", "whole-page")}


def test_processes_sets_the_extractor_processes(app, cli, session, pages):
    result = cli("extract", "--extractor", "whole-page", "--processes", "1")
    assert "3 extractions in " in succeed(result)
    assert "extracting with 1 extractor process\n" in result.stderr
    assert cli("extract", "--processes", "0").exit_code == 2


def test_jobs_is_the_old_hidden_name_of_processes_and_says_so(app, cli, session, pages):
    result = cli("extract", "--extractor", "whole-page", "--jobs", "2")
    assert "3 extractions in " in succeed(result)
    assert "extracting with 2 extractor processes" in result.stderr
    assert "--jobs is now called --processes" in result.stderr
    assert cli("extract", "--jobs", "0").exit_code == 2
    for command in ("extract", "import"):
        shown = succeed(cli(command, "--help"))
        assert "--processes" in shown and "--jobs" not in shown


def test_an_unknown_extractor_is_a_usage_error(cli, session, pages):
    result = cli("extract", "--extractor", "density", "--extractor", "goose")
    assert result.exit_code == 2
    assert "Error: unknown extractor: goose (known: " in result.output
    assert all(name in result.output for name in BUILTINS)
    assert count(session, Extraction) == 0


@pytest.fixture
def misbehaving(tmp_path, monkeypatch):
    """Install a distribution whose entry points register extractor_fixtures' hang, crash and kill-worker."""
    monkeypatch.syspath_prepend(str(installed(tmp_path, "misbehaving", {"hang": "HANG", "crash": "CRASH",
                                                                          "kill-worker": "KILL"})))


@pytest.mark.slow
@pytest.mark.settings(EXTRACT_TIMEOUT=1.0)
def test_hanging_and_crashing_extractors_are_stored_as_errors_while_the_others_finish(
    app, cli, session, pages, misbehaving
):
    names = ("hang", "crash", "kill-worker", "whole-page")
    output = succeed(cli("extract", *(arg for name in names for arg in ("--extractor", name))))
    assert "12 extractions in " in output and "3 done, 9 errors" in output
    for line in ("  3 x hang: timeout after 1 s", "  3 x crash: ValueError: broken page",
                 "  3 x kill-worker: worker crashed (exit code -9, SIGKILL)"):
        assert line in output.splitlines()
    rows = extractions(session)
    assert len(rows) == 12
    for page in ("ferry", "quay", "short"):
        assert rows[page, "hang"].error == "timeout after 1 s"
        assert rows[page, "crash"].error == "ValueError: broken page"
        assert rows[page, "kill-worker"].error.startswith("worker crashed")
        assert [(rows[page, n].accepted, rows[page, n].guard_reason, rows[page, n].text)
                for n in ("hang", "crash", "kill-worker")] == [(False, "error", "")] * 3
        assert rows[page, "whole-page"].error is None


@pytest.mark.slow
@pytest.mark.settings(EXTRACT_TIMEOUT=1.0)
def test_calls_that_crashed_or_timed_out_are_retried_up_to_three_attempts_then_kept(
    app, cli, session, pages, misbehaving
):
    args = [arg for name in ("hang", "crash", "kill-worker", "whole-page") for arg in ("--extractor", name)]
    assert "12 extractions in " in succeed(cli("extract", *args))
    for attempt in (2, 3):
        output = succeed(cli("extract", *args))
        assert "6 extractions in " in output  # hang and kill-worker again; a raising extractor is not retried
        assert "3 x crash" not in output
        session.expire_all()
        rows = extractions(session)
        assert {rows[p, n].attempts for p in ("ferry", "quay", "short") for n in ("hang", "kill-worker")} == {attempt}
        assert {rows[p, n].attempts for p in ("ferry", "quay", "short") for n in ("crash", "whole-page")} == {1}
    assert "0 extractions in " in succeed(cli("extract", *args))
    session.expire_all()
    assert extractions(session)["ferry", "hang"].error == "timeout after 1 s"


# --- rules ---------------------------------------------------------------------------------------


def test_rules_set_list_and_delete(cli):
    assert succeed(cli("rules", "list")) == ""
    assert "rule for Gazette.example saved" in succeed(
        cli("rules", "set", "Gazette.example", "--body", "article", "--drop", "nav", "--drop", ".ad"))
    succeed(cli("rules", "set", "notices.example", "--body", "main"))
    assert succeed(cli("rules", "list")).splitlines() == [
        "gazette.example: --body article --drop nav --drop .ad",
        "notices.example: --body main",
    ]
    succeed(cli("rules", "set", "notices.example", "--body", "#content"))
    assert "rule for notices.example deleted" in succeed(cli("rules", "delete", "notices.example"))
    assert succeed(cli("rules", "list")).splitlines() == [
        "gazette.example: --body article --drop nav --drop .ad"]


def test_rules_list_quotes_options_for_the_shell(cli):
    options = ["--body", "a[title=\"it's $HOME\"] > p", "--drop", "div[class='ad; rm -rf ~']", "--drop", "p:not(.x)"]
    succeed(cli("rules", "set", "gazette.example", *options))
    (line,) = succeed(cli("rules", "list")).splitlines()
    host, listed = line.split(": ", 1)
    assert (host, shlex.split(listed)) == ("gazette.example", options)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--body", "article["], "invalid CSS selector 'article['"),
        (["--body", "article", "--drop", "p:nth-child("], "invalid CSS selector 'p:nth-child('"),
        ([], "Missing option '--body'"),
    ],
)
def test_an_invalid_rule_is_refused_and_nothing_stored(cli, args, message):
    result = cli("rules", "set", "gazette.example", *args)
    assert result.exit_code == 2
    assert message in result.output
    assert succeed(cli("rules", "list")) == ""


def test_deleting_a_missing_rule_is_an_error(cli):
    result = cli("rules", "delete", "nowhere.example")
    assert (result.exit_code, result.output.strip()) == (1, "Error: no rule for nowhere.example")


def test_a_rule_edit_changes_the_site_rules_fingerprint_so_extract_recomputes(cli, session, pages):
    succeed(cli("extract", "--extractor", "site-rules"))
    paths = {key[0]: row.meta["path"] for key, row in extractions(session).items()}
    assert paths == {"ferry": "fallback", "quay": "fallback", "short": "fallback"}

    succeed(cli("rules", "set", "gazette.example", "--body", "article", "--drop", "h1"))
    assert "3 extractions in " in succeed(cli("extract", "--extractor", "site-rules"))
    assert "0 extractions in " in succeed(cli("extract", "--extractor", "site-rules"))
    session.expire_all()
    newest = {}
    for name, row in session.execute(select(Page.source_name, Extraction).join(Extraction.page)
                                     .order_by(Extraction.id)):
        newest[name.removesuffix(".html")] = row
    assert count(session, Extraction) == 6
    assert {page: row.meta["path"] for page, row in newest.items()} == {
        "ferry": "rules", "quay": "rules", "short": "fallback"}
    assert newest["ferry"].text.startswith(PARAGRAPH.strip())  # the h1 dropped, the nav not in the body
    assert len({row.fingerprint for row in newest.values()}) == 1

    succeed(cli("rules", "delete", "gazette.example"))
    assert "0 extractions in " in succeed(cli("extract", "--extractor", "site-rules"))  # back to the first


# --- demo and db -----------------------------------------------------------------------------------


@pytest.mark.slow
def test_demo_loads_and_extracts_once(cli, session):
    first = succeed(cli("demo", "--no-serve"))
    assert "15 imported, 0 duplicate, 0 rejected" in first
    assert f"{15 * len(RUNNABLE)} extractions in " in first
    batches, stored = count(session, ImportBatch), count(session, Extraction)
    assert (batches, count(session, Page), stored) == (1, 15, 15 * len(RUNNABLE))

    second = succeed(cli("demo", "--no-serve"))
    assert "demo corpus already loaded" in second
    assert "0 extractions in " in second
    assert (count(session, ImportBatch), count(session, Page), count(session, Extraction)) == (1, 15, stored)
    log = succeed(cli("audit"))
    assert "batch 2" in log and "import.dropped" in log and '"duplicates": 15' in log, log


def test_db_downgrade_and_upgrade(cli, database_url):
    engine = make_engine(database_url)
    tables = {t.name for t in Base.metadata.sorted_tables}
    try:
        refused = cli("db", "downgrade", "base")
        assert refused.exit_code != 0 and "table page (0 rows)" in refused.output, refused.output
        assert tables <= set(inspect(engine).get_table_names())
        assert "schema at base" in succeed(cli("db", "downgrade", "base", "--yes-destroy"))
        assert not tables & set(inspect(engine).get_table_names())
    finally:
        assert "schema at head" in succeed(cli("db", "upgrade"))
    assert tables <= set(inspect(engine).get_table_names())
    engine.dispose()


# The version the command prints ----------


def test_version_is_goldtexts_own():
    from importlib.metadata import version

    from click.testing import CliRunner

    from webapp.cli import main

    result = CliRunner().invoke(main, ["--version"])
    assert result.exit_code == 0, result.output
    assert result.output.strip() == f"goldtext {version('goldtext')}"
    assert "Flask" not in result.output


# The command index: `goldtext --help` without importing the app ----------


def test_the_index_names_every_command_with_its_own_short_help(app):
    from webapp.cli.command_index import COMMANDS

    assert set(COMMANDS) == set(app.cli.commands)
    for name, command in app.cli.commands.items():
        assert COMMANDS[name].short_help == command.get_short_help_str(limit=10_000), name


def test_help_lists_only_goldtexts_commands_without_importing_flask():
    import subprocess
    import sys

    probe = ("import sys\nfrom webapp.cli import main\ntry:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
             "print('FLASK' if 'flask' in sys.modules else 'NO FLASK')")
    shown = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    assert shown.rstrip().endswith("NO FLASK")
    assert "  import " in shown and "  worker " in shown
    for flask_own in ("--app", "--env-file", "--debug", "  shell ", "  routes "):
        assert flask_own not in shown


def test_demo_refuses_a_taken_port_before_loading_anything(runner, session):
    import socket

    from sqlalchemy import func, select

    from webapp.models import Page

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = runner.invoke(args=["demo", "--port", str(port)])
    assert result.exit_code != 0
    assert f"cannot serve on 127.0.0.1:{port}" in result.output and "--port" in result.output
    assert session.scalar(select(func.count()).select_from(Page)) == 0


@pytest.mark.parametrize("command", [["score"], ["compare", "trafilatura", "justext"], ["guard"],
                                     ["export", "--format", "jsonl", "--out", "unused"], ["extract"],
                                     ["assign", "--to", "Ann"]])
def test_an_unknown_site_is_a_usage_error_that_names_the_stored_sites(runner, session, command):
    from workbench import make_page

    make_page(session, host="transit-times.example")
    make_page(session, host="garden-ledger.example")
    session.commit()
    result = runner.invoke(args=[*command, "--site", "gazette.example"])
    assert result.exit_code == 2, result.output
    assert "no stored page is of the site 'gazette.example'" in result.output
    assert "garden-ledger.example, transit-times.example" in result.output


def test_a_command_never_writes_the_apps_settings(runner, app, session):
    from workbench import make_page

    make_page(session, "<html><body><p>One paragraph of text.</p></body></html>")
    session.commit()
    before = dict(app.config)
    result = runner.invoke(args=["extract", "--extractor", "justext", "--processes", "1"])
    assert result.exit_code == 0, result.output
    assert app.config == before  # --processes goes to this run's pool, not into EXTRACT_PROCESSES


@pytest.mark.settings(UPLOAD_EXTRACTORS=["trafilatura", "no-such-extractor"])
@pytest.mark.parametrize("command", ["run", "serve"])
def test_the_server_refuses_to_start_with_an_unknown_upload_extractor(runner, command):
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    result = runner.invoke(args=[command, "--port", str(port), "--no-worker"])
    assert result.exit_code != 0
    assert "UPLOAD_EXTRACTORS" in result.output and "no-such-extractor" in result.output


def test_the_extractor_list_keeps_its_columns_with_long_versions(runner):
    from webapp.extractors.registry import build_registry

    result = runner.invoke(args=["extractors"])
    assert result.exit_code == 0, result.output
    lines = {line.split()[0]: line for line in result.output.splitlines()}
    registry = build_registry()
    assert max(len(e.version) for e in registry.values()) > 28  # the width the list had, fixed
    versions = {lines[name].index(e.version, len(name)) for name, e in registry.items()}
    descriptions = {lines[name].index(e.description, len(name) + len(e.version)) for name, e in registry.items()}
    assert len(versions) == 1 and len(descriptions) == 1  # each column starts in one place on every line
