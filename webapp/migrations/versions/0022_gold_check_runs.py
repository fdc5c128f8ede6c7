"""gold check runs: when the checks last ran on each page, against which gold version and annotation revision

Revision ID: 0022
Revises: 0021
"""

from alembic import op
import sqlalchemy as sa


revision = '0022'
down_revision = '0021'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'gold_check_run',
        sa.Column('page_id', sa.Integer(), nullable=False),
        sa.Column('checked_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('gold_version', sa.Integer(), nullable=True),
        sa.Column('annotation_revision', sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(['page_id'], ['page.id'], name=op.f('fk_gold_check_run_page_id_page'),
                                ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('page_id', name=op.f('pk_gold_check_run')),
    )


def downgrade() -> None:
    op.drop_table('gold_check_run')
