"""article metadata: the title, authors and publication date of a page, in its gold, its annotations, their
revisions and every extraction (annotation/article_metadata.py gives the shape)

Revision ID: 0027
Revises: 0026
"""

from alembic import op
import sqlalchemy as sa


revision = '0027'
down_revision = '0026'
branch_labels = None
depends_on = None

TABLES = ('gold', 'gold_revision', 'annotation', 'annotation_revision', 'extraction')


# ADD COLUMN in place (SQLite and PostgreSQL): nullable, no default, so no table is copied.
def upgrade() -> None:
    for table in TABLES:
        op.add_column(table, sa.Column('article_metadata', sa.JSON(none_as_null=True), nullable=True))


def downgrade() -> None:
    for table in TABLES:
        op.execute(f'ALTER TABLE {table} DROP COLUMN article_metadata')
