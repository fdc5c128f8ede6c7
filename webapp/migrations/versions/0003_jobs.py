"""jobs, their chunks and files, worker heartbeats; extraction attempts

Revision ID: 0003
Revises: 0002
"""

from alembic import op
import sqlalchemy as sa


revision = '0003'
down_revision = '0002'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'job',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('kind', sa.String(length=32), nullable=False),
        sa.Column('params', sa.JSON(), nullable=False),
        sa.Column('status', sa.String(length=16), nullable=False),
        sa.Column('stage', sa.String(length=32), nullable=False),
        sa.Column('done', sa.Integer(), nullable=False),
        sa.Column('total', sa.Integer(), nullable=True),
        sa.Column('errors', sa.Integer(), nullable=False),
        sa.Column('error', sa.Text(), nullable=True),
        sa.Column('result', sa.JSON(), nullable=False),
        sa.Column('started_by', sa.String(length=100), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('started_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('finished_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('heartbeat_at', sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_job')),
    )
    op.create_index(op.f('ix_job_kind'), 'job', ['kind'])
    op.create_index(op.f('ix_job_status'), 'job', ['status'])
    op.create_table(
        'job_chunk',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('job_id', sa.Integer(), nullable=False),
        sa.Column('step', sa.String(length=16), nullable=False),
        sa.Column('work', sa.JSON(), nullable=False),
        sa.Column('status', sa.String(length=16), nullable=False),
        sa.Column('lease_until', sa.DateTime(timezone=True), nullable=False),
        sa.Column('worker', sa.String(length=200), nullable=True),
        sa.Column('attempts', sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(['job_id'], ['job.id'], name=op.f('fk_job_chunk_job_id_job'), ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_job_chunk')),
    )
    op.create_index(op.f('ix_job_chunk_job_id'), 'job_chunk', ['job_id'])
    op.create_index(op.f('ix_job_chunk_status'), 'job_chunk', ['status'])
    op.create_table(
        'job_file',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('job_id', sa.Integer(), nullable=False),
        sa.Column('name', sa.String(length=255), nullable=False),
        sa.Column('part', sa.Integer(), nullable=False),
        sa.Column('data', sa.LargeBinary(), nullable=False),
        sa.ForeignKeyConstraint(['job_id'], ['job.id'], name=op.f('fk_job_file_job_id_job'), ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_job_file')),
        sa.UniqueConstraint('job_id', 'name', 'part', name=op.f('uq_job_file_job_id')),
    )
    op.create_index(op.f('ix_job_file_job_id'), 'job_file', ['job_id'])
    op.create_table(
        'worker_beat',
        sa.Column('name', sa.String(length=200), nullable=False),
        sa.Column('host', sa.String(length=255), nullable=False),
        sa.Column('pid', sa.Integer(), nullable=False),
        sa.Column('concurrency', sa.Integer(), nullable=False),
        sa.Column('started_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('seen_at', sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint('name', name=op.f('pk_worker_beat')),
    )
    op.create_index(op.f('ix_worker_beat_seen_at'), 'worker_beat', ['seen_at'])
    op.create_index('ix_page_queue_order', 'page', [sa.text('(disagreement IS NULL)'), 'disagreement', 'id'])
    op.execute("INSERT INTO score_epoch (id, value) VALUES (2, 0)")  # the change log's pruning floor
    with op.batch_alter_table('extraction', schema=None) as batch_op:
        batch_op.add_column(sa.Column('attempts', sa.Integer(), nullable=False, server_default='1'))


def downgrade() -> None:
    with op.batch_alter_table('extraction', schema=None) as batch_op:
        batch_op.drop_column('attempts')
    op.execute("DELETE FROM score_epoch WHERE id = 2")
    op.drop_index('ix_page_queue_order', table_name='page')
    op.drop_table('worker_beat')
    op.drop_table('job_file')
    op.drop_table('job_chunk')
    op.drop_table('job')
