"""guidelines: each page type's annotation guideline, one row per version

Revision ID: 0014
Revises: 0013
"""

from alembic import op
import sqlalchemy as sa


revision = '0014'
down_revision = '0013'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'guideline',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('kind', sa.String(length=32), nullable=False),
        sa.Column('version', sa.Integer(), nullable=False),
        sa.Column('text', sa.Text(), nullable=False),
        sa.Column('author', sa.String(length=100), nullable=False),
        sa.Column('note', sa.Text(), nullable=True),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_guideline')),
        sa.UniqueConstraint('kind', 'version', name=op.f('uq_guideline_kind')),
    )
    op.create_index(op.f('ix_guideline_kind'), 'guideline', ['kind'], unique=False)


def downgrade() -> None:
    op.drop_index(op.f('ix_guideline_kind'), table_name='guideline')
    op.drop_table('guideline')
