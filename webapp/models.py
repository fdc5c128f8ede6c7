"""The stored data: sites, import batches, pages, extractions, annotations, gold and their revisions,
jobs, and the accounts, their credentials and the audit log.

SQLAlchemy 2.0 typed models; no Flask here. Raw page bytes are kept exactly as imported and never
rewritten: decoding and extraction are recorded, repeatable steps on top of them.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Text,
    UniqueConstraint,
    text,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


def utcnow() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)
    type_annotation_map = {dict[str, Any]: JSON, list[Any]: JSON}


class Site(Base):
    __tablename__ = "site"

    id: Mapped[int] = mapped_column(primary_key=True)
    host: Mapped[str] = mapped_column(String(255), unique=True)

    pages: Mapped[list[Page]] = relationship(back_populates="site")
    rule: Mapped[SiteRule | None] = relationship(back_populates="site", cascade="all, delete-orphan")


class SiteRule(Base):
    """CSS rules of the `site-rules` extractor for one site."""

    __tablename__ = "site_rule"

    id: Mapped[int] = mapped_column(primary_key=True)
    site_id: Mapped[int] = mapped_column(ForeignKey("site.id", ondelete="CASCADE"), unique=True)
    body: Mapped[str] = mapped_column(Text)
    drop: Mapped[list[Any]] = mapped_column(default=list)
    base: Mapped[str | None] = mapped_column(String(100))
    """The extractor whose text the rule refines (a learned rule); None: the rule's text is its own."""
    updated_by: Mapped[str] = mapped_column(String(100), default="", server_default="")
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow, onupdate=utcnow)

    site: Mapped[Site] = relationship(back_populates="rule")


class ExtractorVariant(Base):
    """A user-defined extractor: a registered extractor (its base) run with options of its own."""

    __tablename__ = "extractor_variant"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(64), unique=True)
    base: Mapped[str] = mapped_column(String(100))
    options: Mapped[dict[str, Any]] = mapped_column(default=dict)
    created_by: Mapped[str] = mapped_column(String(100), default="")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class ImportBatch(Base):
    __tablename__ = "import_batch"

    id: Mapped[int] = mapped_column(primary_key=True)
    source: Mapped[str] = mapped_column(Text)
    format: Mapped[str] = mapped_column(String(32))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    imported: Mapped[int] = mapped_column(default=0)
    duplicates: Mapped[int] = mapped_column(default=0)
    rejected: Mapped[int] = mapped_column(default=0)
    report: Mapped[list[Any]] = mapped_column(default=list)
    created_by: Mapped[str] = mapped_column(String(100), default="", server_default="")

    pages: Mapped[list[Page]] = relationship(back_populates="batch")


class Page(Base):
    __tablename__ = "page"
    # The annotation queue's order (annotation/queue.py): pages without a disagreement value last, then the
    # most disagreement first, then by id; the database reads a page of the queue from this index.
    __table_args__ = (Index("ix_page_queue_order", text("(disagreement IS NULL)"), "disagreement", "id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    url: Mapped[str | None] = mapped_column(Text)
    site_id: Mapped[int] = mapped_column(ForeignKey("site.id"), index=True)
    batch_id: Mapped[int] = mapped_column(ForeignKey("import_batch.id"), index=True)
    source_name: Mapped[str] = mapped_column(Text)
    raw: Mapped[bytes] = mapped_column(LargeBinary, deferred=True)  # large: read on first access only
    sha256: Mapped[str] = mapped_column(String(64), unique=True)
    encoding: Mapped[str] = mapped_column(String(64))
    encoding_source: Mapped[str] = mapped_column(String(16))
    html: Mapped[str] = mapped_column(Text, deferred=True)  # ditto; select(Page.html) where it is needed
    facts: Mapped[dict[str, Any]] = mapped_column(default=dict)
    disagreement: Mapped[float | None] = mapped_column(Float)  # see webapp/annotation/disagreement.py
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    site: Mapped[Site] = relationship(back_populates="pages")
    batch: Mapped[ImportBatch] = relationship(back_populates="pages")
    extractions: Mapped[list[Extraction]] = relationship(
        back_populates="page", cascade="all, delete-orphan"
    )
    gold: Mapped[Gold | None] = relationship(back_populates="page", cascade="all, delete-orphan")
    annotations: Mapped[list[Annotation]] = relationship(
        back_populates="page", cascade="all, delete-orphan", order_by="Annotation.id"
    )


class Extraction(Base):
    """One extractor's output on one page, unique per (page, extractor fingerprint)."""

    __tablename__ = "extraction"
    __table_args__ = (UniqueConstraint("page_id", "fingerprint"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    page_id: Mapped[int] = mapped_column(ForeignKey("page.id", ondelete="CASCADE"), index=True)
    extractor: Mapped[str] = mapped_column(String(100), index=True)
    fingerprint: Mapped[str] = mapped_column(String(255), index=True)
    text: Mapped[str] = mapped_column(Text, default="")
    meta: Mapped[dict[str, Any]] = mapped_column(default=dict)
    duration_ms: Mapped[float] = mapped_column(Float, default=0.0)
    error: Mapped[str | None] = mapped_column(Text)
    incomplete: Mapped[bool] = mapped_column(Boolean, default=False)
    # runs that stored this row; see extractors/service.py RETRYABLE
    attempts: Mapped[int] = mapped_column(Integer, default=1)
    accepted: Mapped[bool] = mapped_column(Boolean, default=False)
    guard_reason: Mapped[str | None] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    page: Mapped[Page] = relationship(back_populates="extractions")


class Gold(Base):
    """The current gold of a page; every save also appends a GoldRevision.

    With overlap 1 the annotators edit it directly (the single annotation is the gold); with a larger
    overlap it is the adjudicated result of the page's Annotations, and ``note`` is the reviewer's note.
    """

    __tablename__ = "gold"

    id: Mapped[int] = mapped_column(primary_key=True)
    page_id: Mapped[int] = mapped_column(ForeignKey("page.id", ondelete="CASCADE"), unique=True)
    text: Mapped[str] = mapped_column(Text, default="")
    kind: Mapped[str] = mapped_column(String(32), default="article")
    status: Mapped[str] = mapped_column(String(16), default="done")
    snippets: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True))
    author: Mapped[str] = mapped_column(String(100))
    version: Mapped[int] = mapped_column(Integer, default=1)
    note: Mapped[str | None] = mapped_column(Text)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    page: Mapped[Page] = relationship(back_populates="gold")
    revisions: Mapped[list[GoldRevision]] = relationship(
        back_populates="gold", cascade="all, delete-orphan", order_by="GoldRevision.id"
    )


class RevisionFields:
    """What every revision records, of a gold or of an annotation: the version it made (or, for a stale
    save, edited), the saved fields, who saved it, and the id of the save."""

    id: Mapped[int] = mapped_column(primary_key=True)
    version: Mapped[int] = mapped_column(Integer)
    text: Mapped[str] = mapped_column(Text, default="")
    kind: Mapped[str] = mapped_column(String(32))
    status: Mapped[str] = mapped_column(String(16))
    snippets: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True))
    author: Mapped[str] = mapped_column(String(100))
    client_save_id: Mapped[str | None] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # What else the save recorded about how the text was made (None: not recorded): where it came from
    # (the prefill's source, each line's origin), the effort it took, the guideline version in force.
    provenance: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True))
    effort: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True))
    guideline_version: Mapped[int | None] = mapped_column(Integer)


class GoldRevision(RevisionFields, Base):
    __tablename__ = "gold_revision"
    __table_args__ = (UniqueConstraint("gold_id", "client_save_id"),)

    gold_id: Mapped[int] = mapped_column(ForeignKey("gold.id", ondelete="CASCADE"), index=True)
    note: Mapped[str | None] = mapped_column(Text)

    gold: Mapped[Gold] = relationship(back_populates="revisions")


class Guideline(Base):
    """One version of a page type's annotation guideline (Markdown): what is main content for pages of that
    type. Every save is a new row with the next version; the newest is the one in force. Versions are
    never changed or deleted, so a revision's `guideline_version` always names the text it was made under
    (annotation/guidelines.py)."""

    __tablename__ = "guideline"
    __table_args__ = (UniqueConstraint("kind", "version"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    kind: Mapped[str] = mapped_column(String(32), index=True)
    version: Mapped[int] = mapped_column(Integer)
    text: Mapped[str] = mapped_column(Text)
    author: Mapped[str] = mapped_column(String(100))
    note: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Annotation(Base):
    """One annotator's own, independent annotation of a page (overlap above 1); every save also appends
    an AnnotationRevision. With overlap 1 there are none: the page's gold is its single annotation."""

    __tablename__ = "annotation"
    __table_args__ = (UniqueConstraint("page_id", "annotator"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    page_id: Mapped[int] = mapped_column(ForeignKey("page.id", ondelete="CASCADE"), index=True)
    annotator: Mapped[str] = mapped_column(String(100), index=True)
    text: Mapped[str] = mapped_column(Text, default="")
    kind: Mapped[str] = mapped_column(String(32), default="article")
    status: Mapped[str] = mapped_column(String(16), default="done")
    snippets: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True))
    version: Mapped[int] = mapped_column(Integer, default=1)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    page: Mapped[Page] = relationship(back_populates="annotations")
    revisions: Mapped[list[AnnotationRevision]] = relationship(
        back_populates="annotation", cascade="all, delete-orphan", order_by="AnnotationRevision.id"
    )

    @property
    def author(self) -> str:
        """Who saved it: its annotator (the name a revision's author has)."""
        return self.annotator


class AnnotationRevision(RevisionFields, Base):
    __tablename__ = "annotation_revision"
    __table_args__ = (UniqueConstraint("annotation_id", "client_save_id"),)

    annotation_id: Mapped[int] = mapped_column(ForeignKey("annotation.id", ondelete="CASCADE"), index=True)

    annotation: Mapped[Annotation] = relationship(back_populates="revisions")


class Assignment(Base):
    """A page given to an annotator explicitly (`goldtext assign`): it comes first in their queue, and it
    holds one of the page's OVERLAP places for them (see annotation/queue.py)."""

    __tablename__ = "assignment"
    __table_args__ = (UniqueConstraint("page_id", "annotator"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    page_id: Mapped[int] = mapped_column(ForeignKey("page.id", ondelete="CASCADE"), index=True)
    annotator: Mapped[str] = mapped_column(String(100), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


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


class GoldCheck(Base):
    """A check of the gold that a page failed when the checks last ran on it (scoring/gold_checks.py):
    one row per page and check, with the reason; a run replaces the rows of the pages it checked."""

    __tablename__ = "gold_check"
    __table_args__ = (UniqueConstraint("page_id", "name"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    page_id: Mapped[int] = mapped_column(ForeignKey("page.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(32), index=True)
    reason: Mapped[str] = mapped_column(Text)
    checked_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


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


class Job(Base):
    """One long task (an extraction run, an upload, an export, a refresh), executed by workers.

    The row is the job's whole state: any web process reads its progress, and any worker can take over
    its chunks. `status`: queued, running, done, failed or cancelled.
    """

    __tablename__ = "job"

    id: Mapped[int] = mapped_column(primary_key=True)
    kind: Mapped[str] = mapped_column(String(32), index=True)
    params: Mapped[dict[str, Any]] = mapped_column(default=dict)
    # the import batch an upload's job fills (None for other jobs)
    batch_id: Mapped[int | None] = mapped_column(ForeignKey("import_batch.id", ondelete="SET NULL"), index=True)
    status: Mapped[str] = mapped_column(String(16), default="queued", index=True)
    stage: Mapped[str] = mapped_column(String(32), default="")
    done: Mapped[int] = mapped_column(Integer, default=0)
    total: Mapped[int | None] = mapped_column(Integer)
    errors: Mapped[int] = mapped_column(Integer, default=0)
    error: Mapped[str | None] = mapped_column(Text)
    result: Mapped[dict[str, Any]] = mapped_column(default=dict)
    started_by: Mapped[str] = mapped_column(String(100), default="")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    started_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    heartbeat_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    chunks: Mapped[list[JobChunk]] = relationship(back_populates="job", cascade="all, delete-orphan")


class JobChunk(Base):
    """A unit of a job that one worker runs at a time, under a lease: a worker that stops renewing it
    (killed, or its machine gone) loses it, and the chunk is handed to another worker. `step` names the
    work (plan, pairs, derive, import, export, refresh: jobs/runner.py STEPS); `work` holds its
    parameters (for `pairs`, the (page id, extractor name, fingerprint) triples)."""

    __tablename__ = "job_chunk"

    id: Mapped[int] = mapped_column(primary_key=True)
    job_id: Mapped[int] = mapped_column(ForeignKey("job.id", ondelete="CASCADE"), index=True)
    step: Mapped[str] = mapped_column(String(16))
    work: Mapped[list[Any]] = mapped_column(default=list)
    status: Mapped[str] = mapped_column(String(16), default="queued", index=True)
    lease_until: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    worker: Mapped[str | None] = mapped_column(String(200))
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    error: Mapped[str | None] = mapped_column(String(500))
    """Why the chunk was handed back (a database or broker error), until a worker takes it again."""

    job: Mapped[Job] = relationship(back_populates="chunks")


class WorkerBeat(Base):
    """A running worker (`goldtext worker`, or the app's embedded one) and when it last said it was
    alive: a job with no live worker is shown as stalled."""

    __tablename__ = "worker_beat"

    name: Mapped[str] = mapped_column(String(200), primary_key=True)  # host:pid:token
    host: Mapped[str] = mapped_column(String(255))
    pid: Mapped[int] = mapped_column(Integer)
    concurrency: Mapped[int] = mapped_column(Integer)
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    seen_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow, index=True)


class JobFile(Base):
    """A file a job reads or writes (an upload, an export's zip), kept in the database in parts so that
    a worker on another machine can read it and any web process can send it."""

    __tablename__ = "job_file"
    __table_args__ = (UniqueConstraint("job_id", "name", "part"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    job_id: Mapped[int] = mapped_column(ForeignKey("job.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(255))
    part: Mapped[int] = mapped_column(Integer)
    data: Mapped[bytes] = mapped_column(LargeBinary)


class User(Base):
    """An account. Its name is what revisions, jobs, imports, rule changes and the audit log record (the
    same strings that typed names were before accounts: a name is never renamed, and an account is
    disabled, never deleted). `role`: annotator, reviewer or admin (webapp/accounts/roles.py)."""

    __tablename__ = "user"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(100), unique=True)
    role: Mapped[str] = mapped_column(String(16))
    password_hash: Mapped[str] = mapped_column(String(255))
    disabled: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Credential(Base):
    """A secret that stands for a user: a browser login (`kind` "session", with an expiry) or an API token
    ("token"). Only the secret's SHA-256 is stored; logging out deletes the row."""

    __tablename__ = "credential"

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("user.id", ondelete="CASCADE"), index=True)
    kind: Mapped[str] = mapped_column(String(16))
    digest: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    expires_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))

    user: Mapped[User] = relationship()


class LoginThrottle(Base):
    """The login throttle's count for one user name (`key` "name:" and the name's key) or one client address
    ("address:" and the address): failures in a row, the last one's time, and when the next attempt may
    check a password (webapp/accounts/throttle.py)."""

    __tablename__ = "login_throttle"

    key: Mapped[str] = mapped_column(String(200), primary_key=True)
    failures: Mapped[int] = mapped_column(Integer, default=0)
    last_failure_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    not_before: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class AuditEvent(Base):
    """One state change: who (`actor`, a user's name, or cli:LOGIN for the command line), when, what
    (`action`, its `target` and `detail`) and from where (`address`). Append-only: the database refuses
    to update or delete a row (triggers of migrations 0007 and 0011); tamper-evident: each event is
    chained to the one before it by its hash (accounts/audit.py)."""

    __tablename__ = "audit_event"
    __table_args__ = (Index("ix_audit_event_action_at", "action", "at"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow, index=True)
    actor: Mapped[str] = mapped_column(String(100), index=True)
    action: Mapped[str] = mapped_column(String(32))
    target: Mapped[str] = mapped_column(String(255), default="")
    detail: Mapped[Any] = mapped_column(JSON(none_as_null=True), nullable=True)
    address: Mapped[str] = mapped_column(String(64), default="")
    prev_digest: Mapped[str | None] = mapped_column(String(64))
    digest: Mapped[str | None] = mapped_column(String(64))
    """SHA-256 of `prev_digest` and the event's fields: the hash chain `goldtext audit verify` checks."""
