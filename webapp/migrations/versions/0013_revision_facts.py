"""revision facts: each gold and annotation revision records its provenance, its effort and the guideline version

Revision ID: 0013
Revises: 0012
"""

from alembic import op
import sqlalchemy as sa


revision = '0013'
down_revision = '0012'
branch_labels = None
depends_on = None

TABLES = ('gold_revision', 'annotation_revision')


def upgrade() -> None:
    for table in TABLES:
        with op.batch_alter_table(table) as batch:
            batch.add_column(sa.Column('provenance', sa.JSON(none_as_null=True), nullable=True))
            batch.add_column(sa.Column('effort', sa.JSON(none_as_null=True), nullable=True))
            batch.add_column(sa.Column('guideline_version', sa.Integer(), nullable=True))


def downgrade() -> None:
    for table in TABLES:
        with op.batch_alter_table(table) as batch:
            batch.drop_column('guideline_version')
            batch.drop_column('effort')
            batch.drop_column('provenance')
