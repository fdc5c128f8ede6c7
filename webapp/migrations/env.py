"""Alembic environment: runs against the engine handed over by webapp.foundation.migrate."""

import warnings

from alembic import context
from sqlalchemy.exc import SAWarning

from webapp.models import Base

# A batch operation on SQLite reflects the tables its table refers to; the page table's expression indexes
# ix_page_queue_order (migration 0003) and ix_page_quality_order (0026) cannot be reflected, and need not be: no
# migration copies the page table, so the indexes stay as they are. Without this, every new database printed the
# warning once.
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
