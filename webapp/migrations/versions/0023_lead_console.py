"""lead console: assignment changes (to undo), comments and change requests on pages, control pages with
their known gold, and the team's candidate tabs

Revision ID: 0023
Revises: 0022
"""

from alembic import op
import sqlalchemy as sa


revision = '0023'
down_revision = '0022'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'assignment_change',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('actor', sa.String(length=100), nullable=False),
        sa.Column('action', sa.String(length=16), nullable=False),
        sa.Column('added', sa.JSON(), nullable=False),
        sa.Column('removed', sa.JSON(), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('undone_at', sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_assignment_change')),
    )
    op.create_index(op.f('ix_assignment_change_actor'), 'assignment_change', ['actor'], unique=False)
    op.create_table(
        'page_comment',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('page_id', sa.Integer(), nullable=False),
        sa.Column('author', sa.String(length=100), nullable=False),
        sa.Column('about', sa.String(length=100), nullable=True),
        sa.Column('kind', sa.String(length=16), nullable=False),
        sa.Column('line', sa.Text(), nullable=True),
        sa.Column('body', sa.Text(), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['page_id'], ['page.id'], name=op.f('fk_page_comment_page_id_page'),
                                ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_page_comment')),
    )
    op.create_index(op.f('ix_page_comment_page_id'), 'page_comment', ['page_id'], unique=False)
    op.create_index(op.f('ix_page_comment_about'), 'page_comment', ['about'], unique=False)
    op.create_table(
        'control_page',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('page_id', sa.Integer(), nullable=False),
        sa.Column('text', sa.Text(), nullable=False),
        sa.Column('page_type', sa.String(length=32), nullable=False),
        sa.Column('snippets', sa.JSON(none_as_null=True), nullable=True),
        sa.Column('gold_version', sa.Integer(), nullable=False),
        sa.Column('author', sa.String(length=100), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['page_id'], ['page.id'], name=op.f('fk_control_page_page_id_page'),
                                ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_control_page')),
        sa.UniqueConstraint('page_id', name=op.f('uq_control_page_page_id')),
    )
    op.create_table(
        'candidate_tab',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('extractor', sa.String(length=100), nullable=False),
        sa.Column('hidden', sa.Boolean(), nullable=False),
        sa.Column('pinned', sa.Boolean(), nullable=False),
        sa.Column('position', sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_candidate_tab')),
        sa.UniqueConstraint('extractor', name=op.f('uq_candidate_tab_extractor')),
    )


def downgrade() -> None:
    op.drop_table('candidate_tab')
    op.drop_table('control_page')
    op.drop_index(op.f('ix_page_comment_about'), table_name='page_comment')
    op.drop_index(op.f('ix_page_comment_page_id'), table_name='page_comment')
    op.drop_table('page_comment')
    op.drop_index(op.f('ix_assignment_change_actor'), table_name='assignment_change')
    op.drop_table('assignment_change')
