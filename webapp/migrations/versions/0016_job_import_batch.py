"""a job's import batch: the batch an upload's job fills, as a column (it was read from the job's JSON
parameters, scanning every upload job)

Revision ID: 0016
Revises: 0015
"""

import json

from alembic import op
import sqlalchemy as sa


revision = '0016'
down_revision = '0015'
branch_labels = None
depends_on = None

JOBS = sa.table('job', sa.column('id', sa.Integer()), sa.column('kind', sa.String()),
                sa.column('params', sa.JSON()), sa.column('batch_id', sa.Integer()))
BATCHES = sa.table('import_batch', sa.column('id', sa.Integer()))


def upgrade() -> None:
    with op.batch_alter_table('job') as batch:
        batch.add_column(sa.Column('batch_id', sa.Integer(), nullable=True))
        batch.create_foreign_key(op.f('fk_job_batch_id_import_batch'), 'import_batch', ['batch_id'], ['id'],
                                 ondelete='SET NULL')
        batch.create_index(op.f('ix_job_batch_id'), ['batch_id'], unique=False)
    connection = op.get_bind()
    batches = set(connection.scalars(sa.select(BATCHES.c.id)))
    for job_id, params in connection.execute(sa.select(JOBS.c.id, JOBS.c.params).where(JOBS.c.kind == 'upload')):
        found = (json.loads(params) if isinstance(params, str) else params or {}).get('batch')
        if isinstance(found, int) and found in batches:
            connection.execute(sa.update(JOBS).where(JOBS.c.id == job_id).values(batch_id=found))


def downgrade() -> None:
    with op.batch_alter_table('job') as batch:
        batch.drop_index(op.f('ix_job_batch_id'))
        batch.drop_constraint(op.f('fk_job_batch_id_import_batch'), type_='foreignkey')
        batch.drop_column('batch_id')
