"""initial schema

Revision ID: 0001
Revises: 
"""

from alembic import op
import sqlalchemy as sa


revision = '0001'
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('import_batch',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('source', sa.Text(), nullable=False),
    sa.Column('format', sa.String(length=32), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('imported', sa.Integer(), nullable=False),
    sa.Column('duplicates', sa.Integer(), nullable=False),
    sa.Column('rejected', sa.Integer(), nullable=False),
    sa.Column('report', sa.JSON(), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_import_batch'))
    )
    op.create_table('score_change',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('epoch', sa.Integer(), nullable=False),
    sa.Column('page_id', sa.Integer(), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_score_change'))
    )
    with op.batch_alter_table('score_change', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_score_change_epoch'), ['epoch'], unique=False)

    epoch = op.create_table('score_epoch',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('value', sa.Integer(), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_score_epoch'))
    )
    op.create_table('site',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('host', sa.String(length=255), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_site')),
    sa.UniqueConstraint('host', name=op.f('uq_site_host'))
    )
    op.create_table('page',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('url', sa.Text(), nullable=True),
    sa.Column('site_id', sa.Integer(), nullable=False),
    sa.Column('batch_id', sa.Integer(), nullable=False),
    sa.Column('source_name', sa.Text(), nullable=False),
    sa.Column('raw', sa.LargeBinary(), nullable=False),
    sa.Column('sha256', sa.String(length=64), nullable=False),
    sa.Column('encoding', sa.String(length=64), nullable=False),
    sa.Column('encoding_source', sa.String(length=16), nullable=False),
    sa.Column('html', sa.Text(), nullable=False),
    sa.Column('signals', sa.JSON(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['batch_id'], ['import_batch.id'], name=op.f('fk_page_batch_id_import_batch')),
    sa.ForeignKeyConstraint(['site_id'], ['site.id'], name=op.f('fk_page_site_id_site')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_page')),
    sa.UniqueConstraint('sha256', name=op.f('uq_page_sha256'))
    )
    with op.batch_alter_table('page', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_page_batch_id'), ['batch_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_page_site_id'), ['site_id'], unique=False)

    op.create_table('site_rule',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('site_id', sa.Integer(), nullable=False),
    sa.Column('body', sa.Text(), nullable=False),
    sa.Column('drop', sa.JSON(), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['site_id'], ['site.id'], name=op.f('fk_site_rule_site_id_site'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_site_rule')),
    sa.UniqueConstraint('site_id', name=op.f('uq_site_rule_site_id'))
    )
    op.create_table('extraction',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('page_id', sa.Integer(), nullable=False),
    sa.Column('extractor', sa.String(length=100), nullable=False),
    sa.Column('fingerprint', sa.String(length=255), nullable=False),
    sa.Column('text', sa.Text(), nullable=False),
    sa.Column('meta', sa.JSON(), nullable=False),
    sa.Column('duration_ms', sa.Float(), nullable=False),
    sa.Column('error', sa.Text(), nullable=True),
    sa.Column('incomplete', sa.Boolean(), nullable=False),
    sa.Column('accepted', sa.Boolean(), nullable=False),
    sa.Column('guard_reason', sa.String(length=64), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['page_id'], ['page.id'], name=op.f('fk_extraction_page_id_page'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_extraction')),
    sa.UniqueConstraint('page_id', 'fingerprint', name=op.f('uq_extraction_page_id'))
    )
    with op.batch_alter_table('extraction', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_extraction_extractor'), ['extractor'], unique=False)
        batch_op.create_index(batch_op.f('ix_extraction_fingerprint'), ['fingerprint'], unique=False)
        batch_op.create_index(batch_op.f('ix_extraction_page_id'), ['page_id'], unique=False)

    op.create_table('gold',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('page_id', sa.Integer(), nullable=False),
    sa.Column('text', sa.Text(), nullable=False),
    sa.Column('kind', sa.String(length=32), nullable=False),
    sa.Column('status', sa.String(length=16), nullable=False),
    sa.Column('snippets', sa.JSON(), nullable=True),
    sa.Column('author', sa.String(length=100), nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['page_id'], ['page.id'], name=op.f('fk_gold_page_id_page'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_gold')),
    sa.UniqueConstraint('page_id', name=op.f('uq_gold_page_id'))
    )
    op.create_table('gold_revision',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('gold_id', sa.Integer(), nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.Column('text', sa.Text(), nullable=False),
    sa.Column('kind', sa.String(length=32), nullable=False),
    sa.Column('status', sa.String(length=16), nullable=False),
    sa.Column('snippets', sa.JSON(), nullable=True),
    sa.Column('author', sa.String(length=100), nullable=False),
    sa.Column('client_save_id', sa.String(length=64), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['gold_id'], ['gold.id'], name=op.f('fk_gold_revision_gold_id_gold'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_gold_revision')),
    sa.UniqueConstraint('gold_id', 'client_save_id', name=op.f('uq_gold_revision_gold_id'))
    )
    with op.batch_alter_table('gold_revision', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_gold_revision_gold_id'), ['gold_id'], unique=False)

    op.create_table('score',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('extraction_id', sa.Integer(), nullable=False),
    sa.Column('page_id', sa.Integer(), nullable=False),
    sa.Column('metric', sa.String(length=32), nullable=False),
    sa.Column('metric_version', sa.Integer(), nullable=False),
    sa.Column('gold_version', sa.Integer(), nullable=False),
    sa.Column('counts', sa.JSON(), nullable=False),
    sa.ForeignKeyConstraint(['extraction_id'], ['extraction.id'], name=op.f('fk_score_extraction_id_extraction'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['page_id'], ['page.id'], name=op.f('fk_score_page_id_page'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_score')),
    sa.UniqueConstraint('extraction_id', 'metric', name=op.f('uq_score_extraction_id'))
    )
    with op.batch_alter_table('score', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_score_extraction_id'), ['extraction_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_score_page_id'), ['page_id'], unique=False)


    op.bulk_insert(epoch, [{'id': 1, 'value': 0}])


def downgrade() -> None:
    with op.batch_alter_table('score', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_score_page_id'))
        batch_op.drop_index(batch_op.f('ix_score_extraction_id'))

    op.drop_table('score')
    with op.batch_alter_table('gold_revision', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_gold_revision_gold_id'))

    op.drop_table('gold_revision')
    op.drop_table('gold')
    with op.batch_alter_table('extraction', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_extraction_page_id'))
        batch_op.drop_index(batch_op.f('ix_extraction_fingerprint'))
        batch_op.drop_index(batch_op.f('ix_extraction_extractor'))

    op.drop_table('extraction')
    op.drop_table('site_rule')
    with op.batch_alter_table('page', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_page_site_id'))
        batch_op.drop_index(batch_op.f('ix_page_batch_id'))

    op.drop_table('page')
    op.drop_table('site')
    op.drop_table('score_epoch')
    with op.batch_alter_table('score_change', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_score_change_epoch'))

    op.drop_table('score_change')
    op.drop_table('import_batch')
