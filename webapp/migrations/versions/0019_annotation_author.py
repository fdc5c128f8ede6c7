"""annotation author: an annotation's `annotator` column is its `author`, the name every other saved
text (a gold, a revision, a guideline version) gives the person who saved it; `annotator` now names only
the role and the person a page is assigned to

Revision ID: 0019
Revises: 0018
"""

from alembic import op
import sqlalchemy as sa


revision = '0019'
down_revision = '0018'
branch_labels = None
depends_on = None


def upgrade() -> None:
    _rename('annotator', 'author')


def downgrade() -> None:
    _rename('author', 'annotator')


def _rename(old: str, new: str) -> None:
    """The annotation table's column `old` renamed `new`, with its index (its unique constraint on
    (page_id, the name) is named for page_id and follows the column)."""
    with op.batch_alter_table('annotation') as batch:
        batch.drop_index(f'ix_annotation_{old}')
        batch.alter_column(old, new_column_name=new, existing_type=sa.String(length=100), existing_nullable=False)
    op.create_index(f'ix_annotation_{new}', 'annotation', [new], unique=False)
