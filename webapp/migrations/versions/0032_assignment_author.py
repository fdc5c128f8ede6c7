"""assignment author: an assignment's person is its `author`, as an annotation's is (the column was
`annotator`), with its index renamed alike

Revision ID: 0032
Revises: 0027
"""

from alembic import op


revision = '0032'
down_revision = '0031'
branch_labels = None
depends_on = None


# RENAME COLUMN in place (SQLite 3.25+ and PostgreSQL): a batch operation would copy the table on SQLite. The
# unique constraint keeps its name (uq_assignment_page_id) and follows the column on both.
def upgrade() -> None:
    op.drop_index('ix_assignment_annotator', table_name='assignment')
    op.execute('ALTER TABLE assignment RENAME COLUMN annotator TO author')
    op.create_index('ix_assignment_author', 'assignment', ['author'], unique=False)


def downgrade() -> None:
    op.drop_index('ix_assignment_author', table_name='assignment')
    op.execute('ALTER TABLE assignment RENAME COLUMN author TO annotator')
    op.create_index('ix_assignment_annotator', 'assignment', ['annotator'], unique=False)
