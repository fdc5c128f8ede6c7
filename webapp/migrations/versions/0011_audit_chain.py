"""the audit log as a hash chain, no REPLACE or TRUNCATE of it; why a job's chunk was handed back

Revision ID: 0011
Revises: 0010

Every event gets the hash of the one before it and its own (existing events are chained here, oldest
first, with the same function `record` uses). On SQLite a trigger refuses an INSERT whose id is taken
(`INSERT OR REPLACE` and `REPLACE INTO` replace a row without firing the DELETE trigger); on PostgreSQL
a trigger refuses TRUNCATE (the deployment guide also takes the table's ownership away from the app's
role). A job's chunk gets the reason it was handed back after a database or broker error.
"""

import sqlalchemy as sa
from alembic import op

from webapp.accounts.audit_log import GENESIS, chain_digest

revision = '0011'
down_revision = '0010'
branch_labels = None
depends_on = None

APPEND_ONLY = 'the audit log is append-only'
EVENTS = sa.table('audit_event', sa.column('id', sa.Integer), sa.column('at', sa.DateTime(timezone=True)),
                  sa.column('actor', sa.String), sa.column('action', sa.String), sa.column('target', sa.String),
                  sa.column('detail', sa.JSON), sa.column('address', sa.String),
                  sa.column('prev_digest', sa.String), sa.column('digest', sa.String))


def _chain_existing(conn) -> None:
    previous = GENESIS
    rows = conn.execute(sa.select(EVENTS).order_by(EVENTS.c.id)).all()
    for row in rows:
        digest = chain_digest(previous, row.at, row.actor, row.action, row.target, row.detail, row.address)
        conn.execute(EVENTS.update().where(EVENTS.c.id == row.id).values(prev_digest=previous, digest=digest))
        previous = digest


def upgrade() -> None:
    # ADD COLUMN in place: a batch operation would copy the tables (and drop their triggers) on SQLite
    op.add_column('audit_event', sa.Column('prev_digest', sa.String(length=64), nullable=True))
    op.add_column('audit_event', sa.Column('digest', sa.String(length=64), nullable=True))
    op.add_column('job_chunk', sa.Column('error', sa.String(length=500), nullable=True))
    conn = op.get_bind()
    if conn.dialect.name == 'postgresql':
        op.execute('ALTER TABLE audit_event DISABLE TRIGGER audit_event_append_only')
        _chain_existing(conn)
        op.execute('ALTER TABLE audit_event ENABLE TRIGGER audit_event_append_only')
        op.execute('CREATE TRIGGER audit_event_no_truncate BEFORE TRUNCATE ON audit_event '
                   'FOR EACH STATEMENT EXECUTE FUNCTION audit_event_append_only()')
    else:
        op.execute('DROP TRIGGER audit_event_no_update')
        _chain_existing(conn)
        op.execute(f"CREATE TRIGGER audit_event_no_update BEFORE UPDATE ON audit_event "
                   f"BEGIN SELECT RAISE(ABORT, '{APPEND_ONLY}'); END")
        op.execute(f"CREATE TRIGGER audit_event_no_replace BEFORE INSERT ON audit_event "
                   f"WHEN EXISTS (SELECT 1 FROM audit_event WHERE id = NEW.id) "
                   f"BEGIN SELECT RAISE(ABORT, '{APPEND_ONLY}'); END")


def downgrade() -> None:
    if op.get_bind().dialect.name == 'postgresql':
        op.execute('DROP TRIGGER audit_event_no_truncate ON audit_event')
    else:
        op.execute('DROP TRIGGER audit_event_no_replace')
    # DROP COLUMN in place (SQLite 3.35 and later): a batch copy would drop the append-only triggers
    for name, column in (('job_chunk', 'error'), ('audit_event', 'digest'), ('audit_event', 'prev_digest')):
        op.execute(f'ALTER TABLE {name} DROP COLUMN {column}')
