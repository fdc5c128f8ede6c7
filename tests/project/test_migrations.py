"""The migrations build exactly the schema the models describe, and can be undone."""

import warnings

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from migration_rows import NOW, insert_row
from sqlalchemy import JSON, column, inspect, text
from sqlalchemy import select as sa_select
from sqlalchemy import table as sa_table

from webapp.foundation.engine import make_engine
from webapp.foundation.migrate import alembic_config, downgrade, upgrade
from webapp.models import Base


def test_migrations_match_models(app, database_url):
    engine = make_engine(database_url)
    upgrade(engine)
    with engine.connect() as conn, warnings.catch_warnings():
        # SQLite cannot reflect the page table's expression indexes, so alembic leaves them out of the
        # comparison there (and says so); on PostgreSQL they are compared like the others
        warnings.filterwarnings("ignore", message="autogenerate skipping metadata-specified expression-based index")
        diff = compare_metadata(MigrationContext.configure(conn), Base.metadata)
    engine.dispose()
    assert diff == []


def test_downgrade_to_base_and_back(tmp_path):
    engine = make_engine(f"sqlite:///{tmp_path / 'm.sqlite'}")
    upgrade(engine)
    downgrade(engine, "base")
    assert set(inspect(engine).get_table_names()) <= {"alembic_version"}
    upgrade(engine)
    assert {t.name for t in Base.metadata.sorted_tables} <= set(inspect(engine).get_table_names())
    engine.dispose()


def test_db_upgrade_command(runner):
    result = runner.invoke(args=["db", "upgrade"])
    assert result.exit_code == 0, result.output
    assert "schema at head" in result.output


# --- 0005: the kinds of gold become page types ------------------------------------------------------

PAGE_TYPES = "0005"


def _gold(conn, page: int, history: list[str], snippets=None) -> int:
    """A gold whose revisions had these kinds in turn, the last one current."""
    gold = insert_row(conn, "gold", page_id=page, text="Gold text.", kind=history[-1], status="done",
                      snippets=snippets, author="ann", version=len(history), updated_at=NOW)
    for version, kind in enumerate(history, 1):
        _revise(conn, gold, version, kind, "ann", None, snippets)
    return gold


def _revise(conn, gold: int, version: int, kind: str, author: str, save_id: str | None, snippets=None) -> None:
    insert_row(conn, "gold_revision", gold_id=gold, version=version, text="Gold text.", kind=kind, status="done",
               snippets=snippets, author=author, client_save_id=save_id, created_at=NOW)


def _state(engine, gold: int) -> tuple:
    """(kind, version, [(revision kind, version, author)], last revision's snippets) of a gold."""
    with engine.connect() as conn:
        kind, version = conn.execute(text("SELECT kind, version FROM gold WHERE id = :g"), {"g": gold}).one()
        rows = conn.execute(sa_select(column("kind"), column("version"), column("author"),
                                      column("snippets", JSON)).select_from(sa_table("gold_revision"))
                            .where(column("gold_id") == gold).order_by(column("id"))).all()
    return kind, version, [tuple(row[:3]) for row in rows], rows[-1][3]


def test_the_page_types_migration_loses_no_kind_and_goes_back(database_url):
    engine = make_engine(database_url)
    before = ScriptDirectory.from_config(alembic_config(engine)).get_revision(PAGE_TYPES).down_revision
    upgrade(engine)
    downgrade(engine, before)
    snippets = {"with": ["Gold"], "without": ["Menu"]}
    try:
        with engine.begin() as conn:
            site = insert_row(conn, "site", host="a.example")
            batch = insert_row(conn, "import_batch", source="s", format="folder", created_at=NOW, imported=5,
                               duplicates=0, rejected=0, report=[])
            pages = [insert_row(conn, "page", url=None, site_id=site, batch_id=batch, source_name=f"p{n}",
                                raw=b"<p>x</p>", sha256=f"{n:064d}", encoding="utf-8", encoding_source="meta",
                                html="<p>x</p>", facts={}, created_at=NOW) for n in range(5)]
            menu = _gold(conn, pages[0], ["article", "not-article"], snippets)
            other = _gold(conn, pages[1], ["other"])
            listing = _gold(conn, pages[2], ["listing"])
            edited = _gold(conn, pages[3], ["not-article"])
        untouched = {gold: _state(engine, gold) for gold in (other, listing)}
        original = _state(engine, menu)

        upgrade(engine, PAGE_TYPES)
        assert _state(engine, menu) == ("other", 3, [("article", 1, "ann"), ("not-article", 2, "ann"),
                                                     ("other", 3, "migration 0005")], snippets)
        assert {gold: _state(engine, gold) for gold in untouched} == untouched
        with engine.begin() as conn:  # saves under the page types: one edited after the upgrade, one new
            conn.execute(text("UPDATE gold SET kind = 'forum', version = 3 WHERE id = :g"), {"g": edited})
            _revise(conn, edited, 3, "forum", "bob", "save-1")
            error = _gold(conn, pages[4], ["error"])

        downgrade(engine, before)
        assert _state(engine, menu) == original
        assert {gold: _state(engine, gold) for gold in untouched} == untouched
        assert _state(engine, edited)[:3] == ("not-article", 4, [
            ("not-article", 1, "ann"), ("other", 2, "migration 0005"), ("forum", 3, "bob"),
            ("not-article", 4, "migration 0005")])
        assert _state(engine, error)[:3] == ("other", 2, [("error", 1, "ann"), ("other", 2, "migration 0005")])

        upgrade(engine, PAGE_TYPES)  # and up again, over a history the first upgrade wrote into
        assert _state(engine, edited)[:2] == ("other", 5)
        assert _state(engine, menu)[:2] == ("other", 3)
    finally:
        upgrade(engine)
        engine.dispose()


# --- 0016: a job's import batch becomes a column -----------------------------------------------------

JOB_BATCH = "0016"


def _job(conn, kind: str, params: dict) -> int:
    return insert_row(conn, "job", kind=kind, params=params, status="done", stage="", done=0, errors=0, result={},
                      started_by="ann", created_at=NOW, heartbeat_at=NOW)


def test_the_job_batch_migration_links_each_upload_job_to_the_batch_its_parameters_name(database_url):
    engine = make_engine(database_url)
    upgrade(engine)
    downgrade(engine, "0015")
    try:
        with engine.begin() as conn:
            batch = insert_row(conn, "import_batch", source="s", format="folder", created_at=NOW, imported=0,
                               duplicates=0, rejected=0, report=[])
            upload = _job(conn, "upload", {"batch": batch, "format": "auto"})
            gone = _job(conn, "upload", {"batch": batch + 100})  # its batch no longer exists
            extract = _job(conn, "extract", {"batch": batch})  # not an upload: no batch of its own
        upgrade(engine, JOB_BATCH)
        with engine.connect() as conn:
            linked = dict(conn.execute(text("SELECT id, batch_id FROM job")).all())
        assert linked == {upload: batch, gone: None, extract: None}
        downgrade(engine, "0015")
        assert "batch_id" not in {c["name"] for c in inspect(engine).get_columns("job")}
    finally:
        upgrade(engine)
        engine.dispose()


# --- 0020: golds keep their Markdown ------------------------------------------------------------------

GOLD_MARKDOWN = "0020"
FLAT_TEXTS = ["Plain words.\nA second paragraph.",
              "# Not a heading\n- not a list\n1. not a list either\n> not a quote\n*not emphasis* and `not code`",
              "| a | b |\nPrice: $5 and $6\n<b>not HTML</b> & [not a link](x)\nA back\\slash and ~~no strike~~", ""]


def _flat_gold(conn, page: int, text: str) -> tuple[int, int]:
    gold = insert_row(conn, "gold", page_id=page, text=text, page_type="article", status="done", author="ann",
                      version=1, updated_at=NOW)
    revision = insert_row(conn, "gold_revision", gold_id=gold, version=1, text=text, page_type="article",
                          status="done", author="ann", created_at=NOW)
    return gold, revision


def _views(engine, name: str, row: int) -> tuple:
    with engine.connect() as conn:
        return tuple(conn.execute(text(f"SELECT text, markdown, text_source FROM {name} WHERE id = :r"),
                                  {"r": row}).one())


def test_the_gold_markdown_migration_keeps_every_text_and_gives_it_its_escaped_markdown(database_url):
    from webapp.scoring.markdown_text import markdown_of_text, plain_text

    engine = make_engine(database_url)
    upgrade(engine)
    downgrade(engine, "0019")
    try:
        with engine.begin() as conn:
            site = insert_row(conn, "site", host="a.example")
            batch = insert_row(conn, "import_batch", source="s", format="folder", created_at=NOW, imported=5,
                               duplicates=0, rejected=0, report=[])
            pages = [insert_row(conn, "page", url=None, site_id=site, batch_id=batch, source_name=f"p{n}",
                                raw=b"<p>x</p>", sha256=f"{n:064d}", encoding="utf-8", encoding_source="meta",
                                html="<p>x</p>", facts={}, created_at=NOW) for n in range(len(FLAT_TEXTS) + 1)]
            golds = [_flat_gold(conn, page, said) for page, said in zip(pages, FLAT_TEXTS, strict=False)]
            annotation = insert_row(conn, "annotation", page_id=pages[-1], author="bea", text=FLAT_TEXTS[1],
                                    page_type="article", status="done", version=1, updated_at=NOW)
            annotation_revision = insert_row(conn, "annotation_revision", annotation_id=annotation, version=1,
                                             text=FLAT_TEXTS[1], page_type="article", status="done", author="bea",
                                             created_at=NOW)
        upgrade(engine, GOLD_MARKDOWN)
        rows = [("gold", gold, said) for (gold, _), said in zip(golds, FLAT_TEXTS, strict=True)]
        rows += [("gold_revision", revision, said) for (_, revision), said in zip(golds, FLAT_TEXTS, strict=True)]
        rows += [("annotation", annotation, FLAT_TEXTS[1]), ("annotation_revision", annotation_revision, FLAT_TEXTS[1])]
        for name, row, said in rows:
            kept, markdown, source = _views(engine, name, row)
            assert (kept, source) == (said, "flat")  # the text every metric reads is what it was
            assert markdown == markdown_of_text(said)
            assert plain_text(markdown) == said  # read back as Markdown, it says the same in the same lines
        assert "\\# Not a heading" in _views(engine, "gold", golds[1][0])[1]
        downgrade(engine, "0019")
        assert not {"markdown", "text_source"} & {c["name"] for c in inspect(engine).get_columns("gold_revision")}
        assert _views_before(engine, golds[1][0]) == FLAT_TEXTS[1]
    finally:
        upgrade(engine)
        engine.dispose()


def _views_before(engine, gold: int) -> str:
    with engine.connect() as conn:
        return conn.execute(text("SELECT text FROM gold WHERE id = :g"), {"g": gold}).scalar_one()
