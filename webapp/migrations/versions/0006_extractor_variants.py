"""extractor variants: user-defined extractors, a registered one with options of their own

Revision ID: 0006
Revises: 0005
"""

from alembic import op
import sqlalchemy as sa


revision = '0006'
down_revision = '0005'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'extractor_variant',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('name', sa.String(length=64), nullable=False),
        sa.Column('base', sa.String(length=100), nullable=False),
        sa.Column('options', sa.JSON(), nullable=False),
        sa.Column('created_by', sa.String(length=100), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_extractor_variant')),
        sa.UniqueConstraint('name', name=op.f('uq_extractor_variant_name')),
    )


def downgrade() -> None:
    op.drop_table('extractor_variant')
