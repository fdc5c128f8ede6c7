"""a site rule's base: the extractor whose text a learned rule refines (issue 24 §6); none for the rules
written by hand, whose text is their own

Revision ID: 0015
Revises: 0014
"""

import sqlalchemy as sa
from alembic import op


revision = '0015'
down_revision = '0014'
branch_labels = None
depends_on = None


def upgrade() -> None:
    # a plain ADD COLUMN on both backends: a batch's table copy on SQLite would lose 0012's triggers
    op.add_column('site_rule', sa.Column('base', sa.String(length=100), nullable=True))


def downgrade() -> None:
    op.drop_column('site_rule', 'base')
