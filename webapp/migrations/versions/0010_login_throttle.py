"""login throttle: one row per user name and per client address, counted and decided atomically

Revision ID: 0010
Revises: 0009
"""

from alembic import op
import sqlalchemy as sa


revision = '0010'
down_revision = '0009'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'login_throttle',
        sa.Column('key', sa.String(length=200), nullable=False),
        sa.Column('failures', sa.Integer(), nullable=False),
        sa.Column('last_failure_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('not_before', sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint('key', name=op.f('pk_login_throttle')),
    )


def downgrade() -> None:
    op.drop_table('login_throttle')
