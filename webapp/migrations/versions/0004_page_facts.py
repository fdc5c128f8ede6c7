"""page facts: the column of what a page says about itself is named for what it holds

Revision ID: 0004
Revises: 0003
"""

from alembic import op


revision = '0004'
down_revision = '0003'
branch_labels = None
depends_on = None


# RENAME COLUMN in place (SQLite >= 3.25 and PostgreSQL): a batch operation would copy the table on
# SQLite and lose the expression index ix_page_queue_order, which SQLite cannot reflect.
def upgrade() -> None:
    op.execute('ALTER TABLE page RENAME COLUMN signals TO facts')


def downgrade() -> None:
    op.execute('ALTER TABLE page RENAME COLUMN facts TO signals')
