"""page types: the kinds of gold become the page types of the configurable taxonomy

Revision ID: 0005
Revises: 0004

A data migration; the schema does not change. Every kind of the older vocabulary is a page type of the
same name but `not-article`, which has no exact type: such gold becomes `other` by a new revision that
changes nothing but the type (author AUTHOR, client save id `0005-up-vN`), so the page's earlier
revisions, which still say `not-article`, are left untouched and the old kind stays in the history.

Going back undoes that revision where it is still the gold's newest, and turns the types the older
vocabulary lacks into its kinds (`error` -> `other`, the types with main content -> `not-article`), by a
revision of the same kind (client save id `0005-down-vN`).
"""

from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op


revision = '0005'
down_revision = '0004'
branch_labels = None
depends_on = None

AUTHOR = 'migration 0005'
OLDER = {'not-article': 'other'}
NEWER = {'error': 'other', 'forum': 'not-article', 'product': 'not-article', 'collection': 'not-article',
         'documentation': 'not-article', 'service': 'not-article'}

gold = sa.table(
    'gold', sa.column('id', sa.Integer), sa.column('text', sa.Text), sa.column('kind', sa.String),
    sa.column('status', sa.String), sa.column('snippets', sa.JSON), sa.column('version', sa.Integer),
)
gold_revision = sa.table(
    'gold_revision', sa.column('id', sa.Integer), sa.column('gold_id', sa.Integer),
    sa.column('version', sa.Integer), sa.column('text', sa.Text), sa.column('kind', sa.String),
    sa.column('status', sa.String), sa.column('snippets', sa.JSON), sa.column('author', sa.String),
    sa.column('client_save_id', sa.String), sa.column('created_at', sa.DateTime(timezone=True)),
)


def relabel(mapping: dict[str, str], marker: str) -> None:
    """Each gold of a kind in `mapping` gets the mapped kind, as a new revision of its gold (the next
    version, the same text, status and snippets), with client save id `marker` + its version."""
    now = sa.literal(datetime.now(UTC), sa.DateTime(timezone=True))
    for old, new in mapping.items():
        version = gold.c.version + 1
        copied = sa.select(
            gold.c.id, version, gold.c.text, sa.literal(new), gold.c.status, gold.c.snippets,
            sa.literal(AUTHOR), sa.literal(marker) + sa.cast(version, sa.String), now,
        ).where(gold.c.kind == old)
        op.execute(gold_revision.insert().from_select(
            ['gold_id', 'version', 'text', 'kind', 'status', 'snippets', 'author', 'client_save_id',
             'created_at'], copied))
        op.execute(gold.update().where(gold.c.kind == old).values(kind=new, version=version))


def upgrade() -> None:
    relabel(OLDER, '0005-up-v')


def downgrade() -> None:
    newest = (
        sa.select(gold_revision.c.id, gold_revision.c.gold_id)
        .join(gold, gold.c.id == gold_revision.c.gold_id)
        .where(gold_revision.c.version == gold.c.version, gold_revision.c.client_save_id.like('0005-up-v%'),
               gold.c.kind == 'other')
    )
    undone = op.get_bind().execute(newest).all()
    for revision_id, gold_id in undone:
        op.execute(gold_revision.delete().where(gold_revision.c.id == revision_id))
        op.execute(gold.update().where(gold.c.id == gold_id).values(kind='not-article', version=gold.c.version - 1))
    relabel(NEWER, '0005-down-v')
