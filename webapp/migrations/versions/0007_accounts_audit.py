"""accounts, their credentials and the audit log; who made an import batch and a site rule

Revision ID: 0007
Revises: 0006

Revisions, gold and jobs keep the names they record (a user's name is the same string a typed name was),
so every existing revision keeps its author. The audit log is append-only in the database itself: a
trigger refuses every UPDATE and DELETE of its rows.
"""

from alembic import op
import sqlalchemy as sa


revision = '0007'
down_revision = '0006'
branch_labels = None
depends_on = None

APPEND_ONLY = 'the audit log is append-only'


def upgrade() -> None:
    op.create_table(
        'user',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('name', sa.String(length=100), nullable=False),
        sa.Column('role', sa.String(length=16), nullable=False),
        sa.Column('password_hash', sa.String(length=255), nullable=False),
        sa.Column('disabled', sa.Boolean(), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_user')),
        sa.UniqueConstraint('name', name=op.f('uq_user_name')),
    )
    op.create_table(
        'credential',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('user_id', sa.Integer(), nullable=False),
        sa.Column('kind', sa.String(length=16), nullable=False),
        sa.Column('digest', sa.String(length=64), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('expires_at', sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(['user_id'], ['user.id'], name=op.f('fk_credential_user_id_user'),
                                ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_credential')),
        sa.UniqueConstraint('digest', name=op.f('uq_credential_digest')),
    )
    op.create_index(op.f('ix_credential_user_id'), 'credential', ['user_id'])
    op.create_table(
        'audit_event',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('actor', sa.String(length=100), nullable=False),
        sa.Column('action', sa.String(length=32), nullable=False),
        sa.Column('target', sa.String(length=255), nullable=False),
        sa.Column('detail', sa.JSON(), nullable=True),
        sa.Column('address', sa.String(length=64), nullable=False),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_audit_event')),
    )
    op.create_index(op.f('ix_audit_event_at'), 'audit_event', ['at'])
    op.create_index(op.f('ix_audit_event_actor'), 'audit_event', ['actor'])
    op.create_index('ix_audit_event_action_at', 'audit_event', ['action', 'at'])
    # ADD COLUMN in place: a batch operation would copy the tables on SQLite
    op.add_column('import_batch', sa.Column('created_by', sa.String(length=100), server_default='',
                                            nullable=False))
    op.add_column('site_rule', sa.Column('updated_by', sa.String(length=100), server_default='',
                                         nullable=False))
    if op.get_bind().dialect.name == 'postgresql':
        op.execute(f"""CREATE FUNCTION audit_event_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN RAISE EXCEPTION '{APPEND_ONLY}'; END $$""")
        op.execute('CREATE TRIGGER audit_event_append_only BEFORE UPDATE OR DELETE ON audit_event '
                   'FOR EACH ROW EXECUTE FUNCTION audit_event_append_only()')
    else:
        for event in ('UPDATE', 'DELETE'):
            op.execute(f"CREATE TRIGGER audit_event_no_{event.lower()} BEFORE {event} ON audit_event "
                       f"BEGIN SELECT RAISE(ABORT, '{APPEND_ONLY}'); END")


def downgrade() -> None:
    op.drop_column('site_rule', 'updated_by')
    op.drop_column('import_batch', 'created_by')
    op.drop_table('audit_event')  # its triggers go with it
    if op.get_bind().dialect.name == 'postgresql':
        op.execute('DROP FUNCTION audit_event_append_only()')
    op.drop_index(op.f('ix_credential_user_id'), table_name='credential')
    op.drop_table('credential')
    op.drop_table('user')
