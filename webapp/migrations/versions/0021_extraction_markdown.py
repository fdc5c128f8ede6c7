"""extraction markdown: each extraction keeps what its extractor kept as Markdown; the extractions stored
before hold their text escaped as Markdown (one paragraph per line), which is what an extractor of text only
gives

Revision ID: 0021
Revises: 0020
"""

from alembic import op
import sqlalchemy as sa

from webapp.scoring.markdown_text import markdown_of_text


revision = '0021'
down_revision = '0020'
branch_labels = None
depends_on = None

BATCH = 500


def upgrade() -> None:
    op.add_column('extraction', sa.Column('markdown', sa.Text(), server_default='', nullable=False))
    connection = op.get_bind()
    extraction = sa.table('extraction', sa.column('id', sa.Integer), sa.column('text', sa.Text),
                          sa.column('markdown', sa.Text))
    last = 0
    while True:
        rows = connection.execute(sa.select(extraction.c.id, extraction.c.text).where(extraction.c.id > last)
                                  .order_by(extraction.c.id).limit(BATCH)).all()
        if not rows:
            break
        connection.execute(extraction.update().where(extraction.c.id == sa.bindparam('row_id'))
                           .values(markdown=sa.bindparam('escaped')),
                           [{'row_id': row_id, 'escaped': markdown_of_text(text or '')} for row_id, text in rows])
        last = rows[-1][0]


def downgrade() -> None:
    # in place (SQLite >= 3.35, PostgreSQL): a batch copy of the table would lose its triggers (0012)
    op.execute('ALTER TABLE extraction DROP COLUMN markdown')
