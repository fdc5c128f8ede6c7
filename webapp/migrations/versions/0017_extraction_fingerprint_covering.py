"""the extraction's fingerprint index covers its page and guard verdict: the leaderboard's drift aggregate
(acceptance per site and batch of every extraction of the shown fingerprints) reads the index alone, not
every extraction row; every query by fingerprint uses it as it used the one-column index it replaces

Revision ID: 0017
Revises: 0016
"""

from alembic import op


revision = '0017'
down_revision = '0016'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('extraction') as batch:
        batch.create_index('ix_extraction_fingerprint_page_accepted', ['fingerprint', 'page_id', 'accepted'],
                           unique=False)
        batch.drop_index(op.f('ix_extraction_fingerprint'))


def downgrade() -> None:
    with op.batch_alter_table('extraction') as batch:
        batch.create_index(op.f('ix_extraction_fingerprint'), ['fingerprint'], unique=False)
        batch.drop_index('ix_extraction_fingerprint_page_accepted')
