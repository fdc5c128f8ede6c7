"""the extraction epoch: a counter the database bumps whenever extractions or extractor definitions change

Row 3 of score_epoch counts every change to the extraction, extractor_variant and site_rule tables, by
triggers, so that whoever writes them (a job step, a command, a cascade) moves it, and a leaderboard poll
reads it in one indexed lookup instead of scanning every extraction.

Revision ID: 0012
Revises: 0011
"""

from alembic import op


revision = '0012'
down_revision = '0011'
branch_labels = None
depends_on = None

EPOCH_ROW = 3
TABLES = ('extraction', 'extractor_variant', 'site_rule')
BUMP = f"UPDATE score_epoch SET value = value + 1 WHERE id = {EPOCH_ROW}"
OPERATIONS = ('INSERT', 'UPDATE', 'DELETE')


def upgrade() -> None:
    op.execute(f"INSERT INTO score_epoch (id, value) VALUES ({EPOCH_ROW}, 0)")
    if op.get_bind().dialect.name == 'postgresql':
        op.execute(f"CREATE FUNCTION goldtext_extraction_epoch() RETURNS trigger LANGUAGE plpgsql AS "
                   f"$$ BEGIN {BUMP}; RETURN NULL; END $$")
        for table in TABLES:
            op.execute(f"CREATE TRIGGER {table}_epoch AFTER INSERT OR UPDATE OR DELETE ON {table} "
                       "FOR EACH STATEMENT EXECUTE FUNCTION goldtext_extraction_epoch()")
        return
    for table in TABLES:
        for operation in OPERATIONS:
            op.execute(f"CREATE TRIGGER {table}_epoch_{operation.lower()} AFTER {operation} ON {table} "
                       f"BEGIN {BUMP}; END")


def downgrade() -> None:
    if op.get_bind().dialect.name == 'postgresql':
        for table in TABLES:
            op.execute(f"DROP TRIGGER {table}_epoch ON {table}")
        op.execute("DROP FUNCTION goldtext_extraction_epoch()")
    else:
        for table in TABLES:
            for operation in OPERATIONS:
                op.execute(f"DROP TRIGGER {table}_epoch_{operation.lower()}")
    op.execute(f"DELETE FROM score_epoch WHERE id = {EPOCH_ROW}")
