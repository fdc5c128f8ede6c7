"""extractor compositions: a cascade, route or union of extractors, defined by name and read from their parts'
stored extractions (extractors/compositions.py); a change to one moves the extraction epoch, as a variant's does

Revision ID: 0031
Revises: 0027
"""

from alembic import op
import sqlalchemy as sa


revision = '0031'
down_revision = '0028'
branch_labels = None
depends_on = None

EPOCH_ROW = 3
BUMP = f"UPDATE score_epoch SET value = value + 1 WHERE id = {EPOCH_ROW}"
OPERATIONS = ('INSERT', 'UPDATE', 'DELETE')


def upgrade() -> None:
    op.create_table(
        'extractor_composition',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('name', sa.String(length=64), nullable=False),
        sa.Column('kind', sa.String(length=16), nullable=False),
        sa.Column('parts', sa.JSON(), nullable=False),
        sa.Column('route_by', sa.String(length=16), nullable=True),
        sa.Column('route_table', sa.JSON(), nullable=False),
        sa.Column('fact_table', sa.JSON(), nullable=False),
        sa.Column('created_by', sa.String(length=100), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_extractor_composition')),
        sa.UniqueConstraint('name', name=op.f('uq_extractor_composition_name')),
    )
    if op.get_bind().dialect.name == 'postgresql':
        op.execute("CREATE TRIGGER extractor_composition_epoch AFTER INSERT OR UPDATE OR DELETE ON "
                   "extractor_composition FOR EACH STATEMENT EXECUTE FUNCTION goldtext_extraction_epoch()")
        return
    for operation in OPERATIONS:
        op.execute(f"CREATE TRIGGER extractor_composition_epoch_{operation.lower()} AFTER {operation} ON "
                   f"extractor_composition BEGIN {BUMP}; END")


def downgrade() -> None:
    if op.get_bind().dialect.name == 'postgresql':
        op.execute("DROP TRIGGER extractor_composition_epoch ON extractor_composition")
    else:
        for operation in OPERATIONS:
            op.execute(f"DROP TRIGGER extractor_composition_epoch_{operation.lower()}")
    op.drop_table('extractor_composition')
