"""The stored data: sites, import batches, pages, extractions, annotations, gold and their revisions,
jobs, the lead's console's records, and the accounts, their credentials and the audit log, one module
per area; every model is imported from here (`from webapp.models import Page`).

SQLAlchemy 2.0 typed models; no Flask here. Raw page bytes are kept exactly as imported and never
rewritten: decoding and extraction are recorded, repeatable steps on top of them.
"""

from .account_models import AuditEvent, Credential, LoginThrottle, User
from .gold_models import (
    Annotation,
    AnnotationRevision,
    Assignment,
    Gold,
    GoldCheck,
    GoldCheckRun,
    GoldRevision,
    Guideline,
    RevisionFields,
)
from .job_models import Job, JobChunk, JobFile, WorkerBeat
from .model_base import NAMING, Base, utcnow
from .page_models import Extraction, ExtractorComposition, ExtractorVariant, ImportBatch, Page, Site, SiteRule
from .rendering_models import RENDERED, PageRendering, PageRequisite, RenderingExtraction
from .score_models import Score, ScoreChange, ScoreEpoch
from .team_models import AssignmentChange, CandidateTab, ControlPage, PageComment

__all__ = [
    "NAMING", "Base", "utcnow", "Site", "SiteRule", "ExtractorVariant", "ExtractorComposition", "ImportBatch", "Page",
    "Extraction",
    "Gold", "RevisionFields", "GoldRevision", "Guideline", "Annotation", "AnnotationRevision", "Assignment",
    "GoldCheck",
    "GoldCheckRun",
    "Score", "ScoreEpoch", "ScoreChange", "Job", "JobChunk", "WorkerBeat", "JobFile", "User", "Credential",
    "LoginThrottle", "AuditEvent", "AssignmentChange", "PageComment", "ControlPage", "CandidateTab",
    "PageRendering", "RenderingExtraction", "PageRequisite", "RENDERED",
]
