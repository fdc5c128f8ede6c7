"""The audit log as a hash chain: `goldtext audit verify` names the first event that was forged, deleted or
moved (on SQLite and PostgreSQL), and, against the checkpoint, a head kept elsewhere and PostgreSQL's
sequence, the newest events or all of them deleted or truncated; the checkpoint moves with commits only;
SQLite's REPLACE cannot rewrite an event, parallel saves never fork the chain, the migration chains the
events written before it, and a downgrade that drops data refuses unless
told `--yes-destroy`."""

from __future__ import annotations

import json
import threading
import uuid
from pathlib import Path

import pytest
from sqlalchemy import create_engine, select, text
from sqlalchemy.exc import DBAPIError
from sqlalchemy.pool import NullPool

from webapp.accounts import audit_head, audit_log
from webapp.foundation.engine import AUDIT_HEAD_FILE, make_engine
from webapp.foundation.migrate import downgrade, upgrade
from webapp.models import AuditEvent
from webapp.web.db import sessions

pytestmark = pytest.mark.security

DOCS = Path(__file__).resolve().parents[2] / "docs"


def three_events(session) -> list[int]:
    for n, action in enumerate(("login", "gold.save", "logout")):
        audit_log.record(session, "ann", action, f"page {n}", {"n": n, "note": "é"}, "10.0.0.1")
    session.commit()
    return list(session.scalars(select(AuditEvent.id).order_by(AuditEvent.id)))


def verify(runner) -> tuple[int, str]:
    result = runner.invoke(args=["audit", "verify"])
    return result.exit_code, result.output


def tamper(session, *statements: str) -> None:
    """Run statements with the append-only triggers out of the way, as the file's or database's owner
    could; the triggers are back afterwards."""
    session.rollback()
    postgres = session.get_bind().dialect.name == "postgresql"
    if postgres:
        session.execute(text("ALTER TABLE audit_event DISABLE TRIGGER USER"))
    else:
        for name in ("no_update", "no_delete"):
            session.execute(text(f"DROP TRIGGER audit_event_{name}"))
    for statement in statements:
        session.execute(text(statement))
    if postgres:
        session.execute(text("ALTER TABLE audit_event ENABLE TRIGGER USER"))
    else:
        for name, event in (("no_update", "UPDATE"), ("no_delete", "DELETE")):
            session.execute(text(f"CREATE TRIGGER audit_event_{name} BEFORE {event} ON audit_event "
                                 "BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END"))
    session.commit()


def test_verify_passes_on_an_intact_chain(runner, session):
    three_events(session)
    code, output = verify(runner)
    assert code == 0, output
    assert "3 event(s), chain intact" in output
    last = session.scalar(select(AuditEvent.digest).order_by(AuditEvent.id.desc()).limit(1))
    assert last in output


@pytest.mark.parametrize(
    ("how", "statements", "broken", "says"),
    [
        ("forged", ["UPDATE audit_event SET actor = 'mallory' WHERE id = {1}"], 1, "was changed after it was written"),
        ("deleted", ["DELETE FROM audit_event WHERE id = {1}"], 2, "does not follow event {0}"),
        ("reordered", ["UPDATE audit_event SET id = -1 WHERE id = {1}",
                       "UPDATE audit_event SET id = {1} WHERE id = {2}",
                       "UPDATE audit_event SET id = {2} WHERE id = -1"], 1, "does not follow event {0}"),
    ],
)
def test_verify_names_the_first_event_forged_deleted_or_moved(runner, session, how, statements, broken, says):
    ids = three_events(session)
    tamper(session, *(statement.format(*ids) for statement in statements))
    code, output = verify(runner)
    assert code == 1, output
    assert f"event {ids[broken]} (" in output, output
    assert says.format(*ids) in output, output


def checkpoint(app) -> Path:
    return Path(app.instance_path) / AUDIT_HEAD_FILE


def test_the_checkpoint_moves_with_each_commit_and_never_with_a_rollback(app, session):
    ids = three_events(session)
    last = session.scalar(select(AuditEvent.digest).where(AuditEvent.id == ids[-1]))
    head = audit_head.read(checkpoint(app))
    assert (head.count, head.last_id, head.digest) == (3, ids[-1], last)
    audit_log.record(session, "ann", "gold.save", "page 9")
    session.rollback()
    assert audit_head.read(checkpoint(app)).last_id == ids[-1]
    newest = audit_log.record(session, "ann", "gold.save", "page 9")
    session.commit()
    assert (audit_head.read(checkpoint(app)).count, audit_head.read(checkpoint(app)).last_id) == (4, newest.id)


def test_a_head_only_moves_forward_when_commits_land_out_of_order(tmp_path):
    path = tmp_path / AUDIT_HEAD_FILE
    assert audit_head.moved_to(path, audit_head.Head(6, 6, "e6")) is not None
    assert audit_head.moved_to(path, audit_head.Head(8, 8, "e8")) is not None  # event 7's commit is not written yet
    assert audit_head.moved_to(path, audit_head.Head(7, 7, "e7")) is None  # it lands late: the head stays at 8
    head = audit_head.read(path)
    assert (head.count, head.last_id, head.digest) == (8, 8, "e8")


def test_the_checkpoint_counts_the_table_when_its_file_names_another_head(app, session):
    """A checkpoint that lags (a commit by a process of another instance folder, a file put back from a
    backup): the next commit counts the events in the table instead of adding to the file's count."""
    ids = three_events(session)
    checkpoint(app).write_text(json.dumps({"count": 1, "last_id": ids[0], "digest": "f" * 64}))
    newest = audit_log.record(session, "ann", "gold.save", "page 9")
    session.commit()
    head = audit_head.read(checkpoint(app))
    assert (head.count, head.last_id) == (4, newest.id)


@pytest.mark.parametrize(("how", "statements", "says"), [
    ("the newest deleted", ["DELETE FROM audit_event WHERE id > {0}"],
     "the newest events are missing: the table ends at event {0} with 1 event(s), but the checkpoint"),
    ("all deleted", ["DELETE FROM audit_event"], "all 3 event(s) are missing: the table is empty"),
    ("truncated", ["TRUNCATE audit_event"], "all 3 event(s) are missing: the table is empty"),
])
def test_verify_fails_naming_what_is_missing_when_the_end_of_the_log_is_cut_off(
        app, runner, session, how, statements, says):
    postgres = session.get_bind().dialect.name == "postgresql"
    if how == "truncated" and not postgres:
        statements = ["DELETE FROM audit_event"]  # SQLite has no TRUNCATE: an unfiltered DELETE is its form of it
    ids = three_events(session)
    tamper(session, *(statement.format(*ids) for statement in statements))
    code, output = verify(runner)
    assert code == 1, output
    assert says.format(*ids) in output, output
    assert str(checkpoint(app)) in output and f"up to event {ids[-1]}" in output


def test_postgresql_s_sequence_shows_an_emptied_log_even_without_the_checkpoint(app, runner, session):
    if session.get_bind().dialect.name != "postgresql":
        pytest.skip("SQLite's ids have no sequence")
    three_events(session)
    tamper(session, "TRUNCATE audit_event")
    checkpoint(app).unlink()
    code, output = verify(runner)
    assert code == 1 and "the database's sequence handed out event ids up to 3" in output, output


def test_a_head_kept_elsewhere_catches_an_owner_who_rewrites_the_log_and_the_checkpoint(app, runner, session):
    ids = three_events(session)
    printed = runner.invoke(args=["audit", "checkpoint"])
    assert printed.exit_code == 0
    kept = printed.output.splitlines()[-1]
    assert printed.output.splitlines()[0] == f"3 event(s) up to event {ids[-1]} (hash {kept})"
    assert runner.invoke(args=["audit", "verify", "--head", kept]).exit_code == 0

    tamper(session, f"DELETE FROM audit_event WHERE id > {ids[0]}")
    first = session.scalar(select(AuditEvent.digest).where(AuditEvent.id == ids[0]))
    checkpoint(app).write_text(json.dumps({"count": 1, "last_id": ids[0], "digest": first}))  # the owner's too
    assert verify(runner)[0] == 0  # what the machine holds agrees with itself: only the kept head can tell
    result = runner.invoke(args=["audit", "verify", "--head", kept])
    assert result.exit_code == 1
    assert f"no event has the hash {kept}, the head you kept" in result.output, result.output


def test_sqlite_replace_cannot_rewrite_an_event_and_a_forgery_past_the_triggers_is_caught(runner, session):
    if session.get_bind().dialect.name != "sqlite":
        pytest.skip("INSERT OR REPLACE and REPLACE INTO are SQLite's")
    ids = three_events(session)
    columns = "id, at, actor, action, target, detail, address, prev_digest, digest"
    forged = (f"SELECT id, at, 'mallory', action, target, detail, address, prev_digest, digest "
              f"FROM audit_event WHERE id = {ids[0]}")
    for verb in ("INSERT OR REPLACE INTO", "REPLACE INTO"):
        with pytest.raises(DBAPIError, match="append-only"):
            session.execute(text(f"{verb} audit_event ({columns}) {forged}"))
        session.rollback()
    assert session.scalar(select(AuditEvent.actor).where(AuditEvent.id == ids[0])) == "ann"
    assert verify(runner)[0] == 0

    # whoever owns the file can drop the trigger too: the forged row no longer matches its hash
    session.rollback()
    session.execute(text("DROP TRIGGER audit_event_no_replace"))
    session.execute(text(f"REPLACE INTO audit_event ({columns}) {forged}"))
    session.commit()
    assert session.scalar(select(AuditEvent.actor).where(AuditEvent.id == ids[0])) == "mallory"
    session.rollback()
    code, output = verify(runner)
    assert code == 1
    assert f"event {ids[0]} (" in output and "was changed after it was written" in output, output


def test_parallel_writers_never_fork_the_chain(app, runner, session):
    session.rollback()
    writers, each = 6, 8
    errors: list[BaseException] = []
    start = threading.Barrier(writers)

    def write(n: int) -> None:
        try:
            start.wait()
            for k in range(each):
                with sessions(app)() as own:
                    audit_log.record(own, f"ann{n}", "gold.save", f"page {k}", None, "10.0.0.1")
                    own.commit()
        except BaseException as error:  # reported below
            errors.append(error)

    threads = [threading.Thread(target=write, args=(n,)) for n in range(writers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    rows = session.execute(select(AuditEvent.prev_digest, AuditEvent.digest).order_by(AuditEvent.id)).all()
    assert len(rows) == writers * each
    assert len({prev for prev, _ in rows}) == len(rows), "two events follow the same one: the chain forked"
    code, output = verify(runner)
    assert code == 0, output


def test_the_migration_chains_the_events_written_before_it(tmp_path):
    engine = make_engine(f"sqlite:///{tmp_path / 'old.sqlite'}")
    upgrade(engine, "0010")
    with engine.begin() as conn:
        for n in range(3):
            conn.execute(text("INSERT INTO audit_event (at, actor, action, target, detail, address) VALUES "
                              "(:at, 'ann', 'login', '', :detail, 'cli')"),
                         {"at": f"2026-01-0{n + 1} 10:00:00.000000", "detail": f'{{"n": {n}}}'})
    upgrade(engine)
    with sessions_of(engine)() as session:
        checked, last, broken = audit_log.verify(session)
        assert (checked, broken) == (3, None)
        audit_log.record(session, "ada", "logout", "", None, "cli")
        session.commit()
        assert audit_log.verify(session)[0] == 4
    engine.dispose()


def sessions_of(engine):
    from sqlalchemy.orm import sessionmaker

    return sessionmaker(engine)


# --- a downgrade that drops data -------------------------------------------------------------------


def test_a_downgrade_that_drops_data_refuses_naming_what_it_drops(runner, session):
    three_events(session)
    session.rollback()
    result = runner.invoke(args=["db", "downgrade", "0006"])
    assert result.exit_code != 0
    for dropped in ("table audit_event (3 rows)", "table user (0 rows)", "table annotation (0 rows)",
                    "table credential", "column import_batch.created_by"):
        assert dropped in result.output, result.output
    assert "--yes-destroy" in result.output
    assert session.scalar(select(AuditEvent.id).limit(1)) is not None  # nothing was dropped
    assert runner.invoke(args=["audit", "verify"]).exit_code == 0


def test_a_downgrade_goes_ahead_with_yes_destroy(tmp_path):
    from webapp import create_app

    url = f"sqlite:///{tmp_path / 'down.sqlite'}"
    app = create_app({"TESTING": True, "INSTANCE_PATH": str(tmp_path), "DATABASE_URL": url, "SECRET_KEY": "x"})
    runner = app.test_cli_runner()
    upgrade(make_engine(url))
    result = runner.invoke(args=["db", "downgrade", "0010"])
    assert result.exit_code != 0
    assert "column audit_event.digest" in result.output and "column job_chunk.error" in result.output
    result = runner.invoke(args=["db", "downgrade", "0010", "--yes-destroy"])
    assert result.exit_code == 0, result.output
    assert "schema at 0010" in result.output
    engine = create_engine(url)
    with engine.connect() as conn:
        columns = {row[1] for row in conn.execute(text("PRAGMA table_info(audit_event)"))}
        triggers = {row[0] for row in conn.execute(text("SELECT name FROM sqlite_master WHERE type = 'trigger'"))}
    assert "digest" not in columns
    assert {"audit_event_no_update", "audit_event_no_delete"} <= triggers  # still append-only
    engine.dispose()
    downgrade(make_engine(url), "0007")  # the migrations before ours still go back from there


# --- PostgreSQL: the app's role may only insert and read the log -------------------------------------


def role_sql() -> str:
    """The deployment guide's SQL that gives the tables to an owner role and the app's role only what
    it needs."""
    guide = (DOCS / "deployment.md").read_text(encoding="utf-8")
    start = guide.index("```sql\n-- audit roles") + len("```sql\n")
    return guide[start:guide.index("```", start)]


def test_on_postgresql_the_app_role_of_the_guide_can_only_insert_and_read_the_log(session, database_url):
    if session.get_bind().dialect.name != "postgresql":
        pytest.skip("roles are PostgreSQL's")
    three_events(session)
    session.rollback()
    suffix = uuid.uuid4().hex[:8]
    owner, app_role = f"goldtext_owner_{suffix}", f"goldtext_app_{suffix}"
    sql = (role_sql().replace("goldtext_owner", owner).replace("goldtext_app", app_role)
           .replace("change-me", "app-secret"))
    admin = create_engine(database_url, poolclass=NullPool)
    try:
        with admin.begin() as conn:
            conn.execute(text(sql))
        app_url = admin.url.set(username=app_role, password="app-secret")
        as_app = create_engine(app_url, poolclass=NullPool)
        try:
            with sessions_of(as_app)() as own:
                audit_log.record(own, "ann", "login", "", None, "10.0.0.9")
                own.commit()
                assert audit_log.verify(own)[:1] == (4,) and audit_log.verify(own)[2] is None
            for statement in ("TRUNCATE audit_event", "ALTER TABLE audit_event DISABLE TRIGGER USER",
                              "UPDATE audit_event SET actor = 'mallory'", "DELETE FROM audit_event",
                              "DROP TABLE audit_event"):
                with as_app.connect() as conn, pytest.raises(DBAPIError) as refused:
                    conn.execute(text(statement))
                assert any(word in str(refused.value) for word in ("permission denied", "must be owner")), (
                    statement, refused.value)
        finally:
            as_app.dispose()
    finally:
        with admin.begin() as conn:
            conn.execute(text(f"REASSIGN OWNED BY {owner} TO postgres"))
            for role in (app_role, owner):
                conn.execute(text(f"DROP OWNED BY {role}"))
                conn.execute(text(f"DROP ROLE {role}"))
        admin.dispose()
