"""The migration that names every page-type column `page_type` keeps the data, both ways."""

from datetime import UTC, datetime

from alembic.script import ScriptDirectory
from sqlalchemy import JSON, DateTime, LargeBinary, column, inspect, text
from sqlalchemy import table as sa_table

from webapp.engine import make_engine
from webapp.migrate import alembic_config, downgrade, upgrade

NOW = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)
COLUMNS = {"gold", "gold_revision", "annotation", "annotation_revision", "guideline"}


def _insert(conn, name: str, **values) -> int:
    def typed(value):
        return {dict: JSON, list: JSON, datetime: DateTime(timezone=True), bytes: LargeBinary}.get(type(value))
    table = sa_table(name, *(column(key, typed(value)) for key, value in values.items()), column("id"))
    return conn.execute(table.insert().values(**values).returning(table.c.id)).scalar_one()


def _revision_of(engine) -> str:
    script = ScriptDirectory.from_config(alembic_config(engine))
    [found] = [r.revision for r in script.walk_revisions() if r.module.__file__.endswith("_page_type_columns.py")]
    return found


def _types(engine, word: str) -> dict[str, list[str]]:
    with engine.connect() as conn:
        return {name: conn.execute(text(f"SELECT {word} FROM {name} ORDER BY id")).scalars().all()
                for name in sorted(COLUMNS)}


def _page_type_columns(engine) -> dict[str, set[str]]:
    found = inspect(engine)
    return {name: {c["name"] for c in found.get_columns(name)} & {"kind", "page_type"} for name in sorted(COLUMNS)}


def test_every_page_type_column_is_renamed_with_its_data_and_back(database_url):
    engine = make_engine(database_url)
    revision = _revision_of(engine)
    before = ScriptDirectory.from_config(alembic_config(engine)).get_revision(revision).down_revision
    upgrade(engine)
    downgrade(engine, before)
    try:
        with engine.begin() as conn:
            site = _insert(conn, "site", host="a.example")
            batch = _insert(conn, "import_batch", source="s", format="folder", created_at=NOW, imported=1,
                            duplicates=0, rejected=0, report=[])
            page = _insert(conn, "page", url=None, site_id=site, batch_id=batch, source_name="p", raw=b"<p>x</p>",
                           sha256="0" * 64, encoding="utf-8", encoding_source="meta", html="<p>x</p>", facts={},
                           created_at=NOW)
            gold = _insert(conn, "gold", page_id=page, text="Gold.", kind="forum", status="done", author="ann",
                           version=1, updated_at=NOW)
            _insert(conn, "gold_revision", gold_id=gold, version=1, text="Gold.", kind="forum", status="done",
                    author="ann", created_at=NOW)
            said = _insert(conn, "annotation", page_id=page, annotator="bob", text="Said.", kind="listing",
                           status="done", version=1, updated_at=NOW)
            _insert(conn, "annotation_revision", annotation_id=said, version=1, text="Said.", kind="listing",
                    status="done", author="bob", created_at=NOW)
            _insert(conn, "guideline", kind="wall", version=2, text="Walls.", author="ann", created_at=NOW)
        stored = _types(engine, "kind")

        upgrade(engine, revision)
        assert _page_type_columns(engine) == {name: {"page_type"} for name in sorted(COLUMNS)}
        assert _types(engine, "page_type") == stored
        assert {i["name"] for i in inspect(engine).get_indexes("guideline")} >= {"ix_guideline_page_type"}
        assert {u["name"] for u in inspect(engine).get_unique_constraints("guideline")} == {"uq_guideline_page_type"}

        downgrade(engine, before)
        assert _page_type_columns(engine) == {name: {"kind"} for name in sorted(COLUMNS)}
        assert _types(engine, "kind") == stored
    finally:
        upgrade(engine)
        engine.dispose()
