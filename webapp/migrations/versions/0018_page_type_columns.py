"""page types: every page-type column `kind` (gold, gold_revision, annotation, annotation_revision,
guideline; the guideline's index and unique constraint with it) is `page_type`, the word the settings
and the interface use. The data is kept; the downgrade names them `kind` again. The four tables rename
the column in place (SQLite 3.25+ and PostgreSQL); the guideline, whose constraint names the column,
goes through batch_alter_table (on SQLite, a copy; nothing refers to it).

Revision ID: 0018
Revises: 0017
"""

from alembic import op

revision = '0018'
down_revision = '0017'
branch_labels = None
depends_on = None

TABLES = ('gold', 'gold_revision', 'annotation', 'annotation_revision')


def _rename(old: str, new: str) -> None:
    for table in TABLES:  # in place, on both backends: a copy of gold would cascade-delete its revisions
        op.execute(f'ALTER TABLE {table} RENAME COLUMN {old} TO {new}')
    with op.batch_alter_table('guideline') as batch:
        batch.drop_index(op.f(f'ix_guideline_{old}'))
        batch.drop_constraint(op.f(f'uq_guideline_{old}'), type_='unique')
        batch.alter_column(old, new_column_name=new)
    with op.batch_alter_table('guideline') as batch:  # SQLite: after the copy that renamed the column
        batch.create_index(op.f(f'ix_guideline_{new}'), [new], unique=False)
        batch.create_unique_constraint(op.f(f'uq_guideline_{new}'), [new, 'version'])


def upgrade() -> None:
    _rename('kind', 'page_type')


def downgrade() -> None:
    _rename('page_type', 'kind')
