"""page predicted quality: rs-trafilatura's prediction of its own extraction's quality, copied onto the page for
the annotation queue's "least confident first" order, with that order's index

Revision ID: 0026
Revises: 0023
"""

from alembic import op
import sqlalchemy as sa


revision = '0026'
down_revision = '0023'
branch_labels = None
depends_on = None


# ADD COLUMN in place (SQLite and PostgreSQL): a batch operation would copy the table on SQLite and lose the
# expression index ix_page_queue_order, which SQLite cannot reflect.
def upgrade() -> None:
    op.add_column('page', sa.Column('predicted_quality', sa.Float(), nullable=True))
    op.create_index('ix_page_quality_order', 'page',
                    [sa.text('(predicted_quality IS NULL)'), 'predicted_quality', 'id'])


def downgrade() -> None:
    op.drop_index('ix_page_quality_order', table_name='page')
    op.execute('ALTER TABLE page DROP COLUMN predicted_quality')
