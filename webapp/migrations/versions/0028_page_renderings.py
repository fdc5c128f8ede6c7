"""page renderings: a captured page's rendering in Chromium (its DOM and screenshot), the extractors' output on
it (apart from their output on the raw response), the stylesheets, fonts and images of its styled snapshot, and
which of its two renderings the team chose to score (page.scored_rendering; none: the raw response)

Revision ID: 0028
Revises: 0027
"""

from alembic import op
import sqlalchemy as sa


revision = '0028'
down_revision = '0027'
branch_labels = None
depends_on = None


# ADD COLUMN in place (SQLite and PostgreSQL): a batch operation would copy the page table on SQLite and lose the
# expression indexes, which SQLite cannot reflect.
def upgrade() -> None:
    op.add_column('page', sa.Column('scored_rendering', sa.String(length=16), nullable=True))
    op.create_table(
        'page_rendering',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('page_id', sa.Integer(), nullable=False),
        sa.Column('html', sa.Text(), nullable=False),
        sa.Column('screenshot', sa.LargeBinary(), nullable=True),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['page_id'], ['page.id'], name=op.f('fk_page_rendering_page_id_page'),
                                ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_page_rendering')),
        sa.UniqueConstraint('page_id', name=op.f('uq_page_rendering_page_id')),
    )
    op.create_table(
        'rendering_extraction',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('rendering_id', sa.Integer(), nullable=False),
        sa.Column('extractor', sa.String(length=100), nullable=False),
        sa.Column('fingerprint', sa.String(length=255), nullable=False),
        sa.Column('text', sa.Text(), nullable=False),
        sa.Column('markdown', sa.Text(), nullable=False),
        sa.Column('meta', sa.JSON(), nullable=False),
        sa.Column('duration_ms', sa.Float(), nullable=False),
        sa.Column('error', sa.Text(), nullable=True),
        sa.Column('accepted', sa.Boolean(), nullable=False),
        sa.Column('guard_reason', sa.String(length=64), nullable=True),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['rendering_id'], ['page_rendering.id'],
                                name=op.f('fk_rendering_extraction_rendering_id_page_rendering'), ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_rendering_extraction')),
        sa.UniqueConstraint('rendering_id', 'fingerprint', name=op.f('uq_rendering_extraction_rendering_id')),
    )
    op.create_index(op.f('ix_rendering_extraction_rendering_id'), 'rendering_extraction', ['rendering_id'],
                    unique=False)
    op.create_table(
        'page_requisite',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('page_id', sa.Integer(), nullable=False),
        sa.Column('url', sa.Text(), nullable=False),
        sa.Column('content_type', sa.String(length=255), nullable=False),
        sa.Column('data', sa.LargeBinary(), nullable=False),
        sa.ForeignKeyConstraint(['page_id'], ['page.id'], name=op.f('fk_page_requisite_page_id_page'),
                                ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_page_requisite')),
        sa.UniqueConstraint('page_id', 'url', name=op.f('uq_page_requisite_page_id')),
    )
    op.create_index(op.f('ix_page_requisite_page_id'), 'page_requisite', ['page_id'], unique=False)


def downgrade() -> None:
    op.drop_index(op.f('ix_page_requisite_page_id'), table_name='page_requisite')
    op.drop_table('page_requisite')
    op.drop_index(op.f('ix_rendering_extraction_rendering_id'), table_name='rendering_extraction')
    op.drop_table('rendering_extraction')
    op.drop_table('page_rendering')
    op.execute('ALTER TABLE page DROP COLUMN scored_rendering')
