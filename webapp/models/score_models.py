"""The cached scores and their change log."""

from __future__ import annotations

from typing import Any

from sqlalchemy import ForeignKey, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from .model_base import Base


class Score(Base):
    """Cached per-page counts of one metric for one extraction against the page's gold.

    Valid while the gold's version and the metric's definition version are the ones recorded here;
    a re-extraction deletes the extraction's rows.
    """

    __tablename__ = "score"
    __table_args__ = (UniqueConstraint("extraction_id", "metric"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    extraction_id: Mapped[int] = mapped_column(
        ForeignKey("extraction.id", ondelete="CASCADE"), index=True
    )
    page_id: Mapped[int] = mapped_column(ForeignKey("page.id", ondelete="CASCADE"), index=True)
    metric: Mapped[str] = mapped_column(String(32))
    metric_version: Mapped[int] = mapped_column(Integer)
    gold_version: Mapped[int] = mapped_column(Integer)
    counts: Mapped[dict[str, Any]] = mapped_column()


class ScoreEpoch(Base):
    """One row: a counter bumped by every transaction that changes pages' scores or gold.

    Writers update it first, which takes a row lock until they commit, so epochs commit in order and
    in-process caches catch up by reading the ScoreChange rows of the epochs they have not seen.
    """

    __tablename__ = "score_epoch"

    id: Mapped[int] = mapped_column(primary_key=True)
    value: Mapped[int] = mapped_column(Integer, default=0)


class ScoreChange(Base):
    __tablename__ = "score_change"

    id: Mapped[int] = mapped_column(primary_key=True)
    epoch: Mapped[int] = mapped_column(Integer, index=True)
    page_id: Mapped[int] = mapped_column(Integer)
