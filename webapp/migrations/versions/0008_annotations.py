"""annotations: one per (page, annotator) with revisions, explicit assignments, the reviewer's note

Every existing gold and revision stays as it is: it is the gold of its page, and with overlap 1 the
gold is the single annotation (no copy is made).

Revision ID: 0008
Revises: 0007
"""

from alembic import op
import sqlalchemy as sa


revision = '0008'
down_revision = '0007'
branch_labels = None
depends_on = None


# ADD COLUMN in place on gold and gold_revision; no batch operation (on SQLite a batch copies the table).
def upgrade() -> None:
    op.create_table('annotation',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('page_id', sa.Integer(), nullable=False),
    sa.Column('annotator', sa.String(length=100), nullable=False),
    sa.Column('text', sa.Text(), nullable=False),
    sa.Column('kind', sa.String(length=32), nullable=False),
    sa.Column('status', sa.String(length=16), nullable=False),
    sa.Column('snippets', sa.JSON(none_as_null=True), nullable=True),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['page_id'], ['page.id'], name=op.f('fk_annotation_page_id_page'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_annotation')),
    sa.UniqueConstraint('page_id', 'annotator', name=op.f('uq_annotation_page_id'))
    )
    op.create_index(op.f('ix_annotation_annotator'), 'annotation', ['annotator'], unique=False)
    op.create_index(op.f('ix_annotation_page_id'), 'annotation', ['page_id'], unique=False)
    op.create_table('annotation_revision',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('annotation_id', sa.Integer(), nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.Column('text', sa.Text(), nullable=False),
    sa.Column('kind', sa.String(length=32), nullable=False),
    sa.Column('status', sa.String(length=16), nullable=False),
    sa.Column('snippets', sa.JSON(none_as_null=True), nullable=True),
    sa.Column('author', sa.String(length=100), nullable=False),
    sa.Column('client_save_id', sa.String(length=64), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['annotation_id'], ['annotation.id'],
                            name=op.f('fk_annotation_revision_annotation_id_annotation'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_annotation_revision')),
    sa.UniqueConstraint('annotation_id', 'client_save_id', name=op.f('uq_annotation_revision_annotation_id'))
    )
    op.create_index(op.f('ix_annotation_revision_annotation_id'), 'annotation_revision', ['annotation_id'],
                    unique=False)
    op.create_table('assignment',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('page_id', sa.Integer(), nullable=False),
    sa.Column('annotator', sa.String(length=100), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['page_id'], ['page.id'], name=op.f('fk_assignment_page_id_page'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_assignment')),
    sa.UniqueConstraint('page_id', 'annotator', name=op.f('uq_assignment_page_id'))
    )
    op.create_index(op.f('ix_assignment_annotator'), 'assignment', ['annotator'], unique=False)
    op.create_index(op.f('ix_assignment_page_id'), 'assignment', ['page_id'], unique=False)
    op.add_column('gold', sa.Column('note', sa.Text(), nullable=True))
    op.add_column('gold_revision', sa.Column('note', sa.Text(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('gold_revision') as batch_op:
        batch_op.drop_column('note')
    with op.batch_alter_table('gold') as batch_op:
        batch_op.drop_column('note')
    op.drop_table('assignment')
    op.drop_table('annotation_revision')
    op.drop_table('annotation')
