"""gold checks: the checks of the gold each page failed when they last ran

Revision ID: 0009
Revises: 0008
"""

from alembic import op
import sqlalchemy as sa


revision = '0009'
down_revision = '0008'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'gold_check',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('page_id', sa.Integer(), nullable=False),
        sa.Column('name', sa.String(length=32), nullable=False),
        sa.Column('reason', sa.Text(), nullable=False),
        sa.Column('checked_at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['page_id'], ['page.id'], name=op.f('fk_gold_check_page_id_page'),
                                ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_gold_check')),
        sa.UniqueConstraint('page_id', 'name', name=op.f('uq_gold_check_page_id')),
    )
    op.create_index(op.f('ix_gold_check_page_id'), 'gold_check', ['page_id'])
    op.create_index(op.f('ix_gold_check_name'), 'gold_check', ['name'])


def downgrade() -> None:
    op.drop_index(op.f('ix_gold_check_name'), table_name='gold_check')
    op.drop_index(op.f('ix_gold_check_page_id'), table_name='gold_check')
    op.drop_table('gold_check')
