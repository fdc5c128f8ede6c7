"""The migrations build exactly the schema the models describe, and can be undone."""

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect

from webapp.db import make_engine
from webapp.migrate import downgrade, upgrade
from webapp.models import Base


def test_migrations_match_models(app, database_url):
    engine = make_engine(database_url)
    upgrade(engine)
    with engine.connect() as conn:
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
