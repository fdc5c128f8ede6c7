"""The migration that names every page-type column `page_type` keeps the data, both ways."""


from alembic.script import ScriptDirectory
from migration_rows import NOW, insert_row, one_page
from sqlalchemy import inspect, text

from webapp.foundation.engine import make_engine
from webapp.foundation.migrate import alembic_config, downgrade, upgrade

COLUMNS = {"gold", "gold_revision", "annotation", "annotation_revision", "guideline"}


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
            page = one_page(conn)
            gold = insert_row(conn, "gold", page_id=page, text="Gold.", kind="forum", status="done", author="ann",
                              version=1, updated_at=NOW)
            insert_row(conn, "gold_revision", gold_id=gold, version=1, text="Gold.", kind="forum", status="done",
                       author="ann", created_at=NOW)
            said = insert_row(conn, "annotation", page_id=page, annotator="bob", text="Said.", kind="listing",
                              status="done", version=1, updated_at=NOW)
            insert_row(conn, "annotation_revision", annotation_id=said, version=1, text="Said.", kind="listing",
                       status="done", author="bob", created_at=NOW)
            insert_row(conn, "guideline", kind="wall", version=2, text="Walls.", author="ann", created_at=NOW)
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
