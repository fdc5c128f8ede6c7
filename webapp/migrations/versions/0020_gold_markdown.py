"""gold markdown: a gold, an annotation and their revisions keep their Markdown (`markdown`) beside the
plain text every text metric reads (`text`, unchanged), and say where that text came from
(`text_source`, vocabulary.TEXT_SOURCES). Every existing row was flat text: its Markdown is that text with
Markdown's markup characters escaped, one paragraph per line (scoring/markdown_text.py
`markdown_of_text`), and its text source is `flat`. The rows are filled BATCH at a time, in id order.

The columns are added in place (`ALTER TABLE ... ADD COLUMN ... NOT NULL DEFAULT`, on SQLite and
PostgreSQL: a copy of gold would cascade-delete its revisions); PostgreSQL then drops the defaults
(SQLite cannot without a copy; the models never rely on them). The downgrade drops the columns.

Revision ID: 0020
Revises: 0019
"""

from alembic import op
from sqlalchemy import bindparam, column, select, table, update
from sqlalchemy import Integer, Text

from webapp.scoring.markdown_text import markdown_of_text

revision = '0020'
down_revision = '0019'
branch_labels = None
depends_on = None

TABLES = ('gold', 'gold_revision', 'annotation', 'annotation_revision')
BATCH = 500


def upgrade() -> None:
    postgres = op.get_bind().dialect.name == 'postgresql'
    for name in TABLES:
        op.execute(f"ALTER TABLE {name} ADD COLUMN markdown TEXT NOT NULL DEFAULT ''")
        op.execute(f"ALTER TABLE {name} ADD COLUMN text_source VARCHAR(16) NOT NULL DEFAULT 'flat'")
        _fill(name)
        if postgres:
            op.execute(f'ALTER TABLE {name} ALTER COLUMN markdown DROP DEFAULT')
            op.execute(f'ALTER TABLE {name} ALTER COLUMN text_source DROP DEFAULT')


def _fill(name: str) -> None:
    """markdown = markdown_of_text(text) for every row of the table, BATCH rows at a time."""
    rows = table(name, column('id', Integer), column('text', Text), column('markdown', Text))
    connection = op.get_bind()
    change = update(rows).where(rows.c.id == bindparam('row_id')).values(markdown=bindparam('new_markdown'))
    last = 0
    while True:
        found = connection.execute(select(rows.c.id, rows.c.text).where(rows.c.id > last)
                                   .order_by(rows.c.id).limit(BATCH)).all()
        if not found:
            return
        connection.execute(change, [{'row_id': row_id, 'new_markdown': markdown_of_text(text or '')}
                                    for row_id, text in found])
        last = found[-1][0]


def downgrade() -> None:
    for name in TABLES:
        op.execute(f'ALTER TABLE {name} DROP COLUMN text_source')
        op.execute(f'ALTER TABLE {name} DROP COLUMN markdown')
