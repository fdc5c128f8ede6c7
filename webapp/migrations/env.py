"""Alembic environment: runs against the engine handed over by webapp.migrate."""

import warnings

from alembic import context
from sqlalchemy.exc import SAWarning

from webapp.models import Base

# A batch operation on SQLite reflects the tables its table refers to; the page table's expression index
# ix_page_queue_order (migration 0003) cannot be reflected, and need not be: no migration copies the page
# table, so the index stays as it is. Without this, every new database printed the warning once.
warnings.filterwarnings("ignore", message="Skipped unsupported reflection of expression-based index",
                        category=SAWarning)

engine = context.config.attributes["engine"]
with engine.begin() as connection:
    context.configure(
        connection=connection,
        target_metadata=Base.metadata,
        render_as_batch=connection.dialect.name == "sqlite",
    )
    context.run_migrations()
