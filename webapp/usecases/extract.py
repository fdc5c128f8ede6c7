"""Start an extraction: a job that runs extractors on the stored pages (what is missing for their current
fingerprints, or everything with ``force``), then caches the new extractions' scores and measures the
pages' disagreement. Every face that starts one calls `start_extraction`: `goldtext extract` (run here
or, with --background, by the workers; cli/extract_commands.py) and `POST /api/extractions` (views/api.py); the
browser upload checks the extractors its job will run with `checked_extractors` (views/upload.py).

The rules: every extractor named is registered or a stored variant, and can run here (400 naming the
first that is not; none named: every one that can run); a site named is a host's name, not empty (400);
`outdated` runs each extractor only on the pages it has extracted at another fingerprint only (an older
version: what the leaderboard marks); a composition named runs its parts, then its extractions are derived
from theirs; the job is queued with its first step's chunk; the start is audited. The face commits, then dispatches
the job to the workers (or runs it in its own process)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy.orm import Session

from ..accounts.audit_actions import Action
from ..accounts.roles import ADMIN
from ..extractors.extraction_service import current_extractors
from ..extractors.registry import UnknownExtractor
from ..foundation.settings import Settings
from ..jobs.records import create_job
from ..models import Job
from .bodies import EXTRACTION, validated
from .outcome import Actor, Refused, needs


@dataclass(frozen=True)
class ExtractionRequest:
    extractors: tuple[str, ...] = ()  # none: every registered extractor that can run here
    site: str | None = None  # only pages of this site
    force: bool = False  # recompute what is already stored
    outdated: bool = False  # only the pages each extractor has extracted at another version only
    derive_only: bool = False  # run nothing: derive the compositions' extractions and score them

    def params(self) -> dict[str, Any]:
        """The job's parameters (what its steps read)."""
        return {"extractors": list(self.extractors), "site": self.site, "force": self.force,
                "outdated": self.outdated, "derive_only": self.derive_only}


def extraction_request(body: Any) -> ExtractionRequest:
    """The start of an extraction from its JSON object (usecases/bodies.py `EXTRACTION`); Refused (400)."""
    body = validated(EXTRACTION, body)
    return ExtractionRequest(tuple(body.get("extractors") or ()), body.get("site"), bool(body.get("force")),
                             bool(body.get("outdated")))


def checked_extractors(session: Session, settings: Settings, names: Sequence[str]) -> tuple[str, ...]:
    """The names if each is an extractor that can run here; Refused (400) naming the first that is not."""
    try:
        current_extractors(session, settings.registry, names)
    except UnknownExtractor as error:
        raise Refused(400, str(error)) from None
    return tuple(names)


@needs(ADMIN, "Only an admin starts an extraction.")
def start_extraction(session: Session, settings: Settings, actor: Actor, request: ExtractionRequest) -> Job:
    """The queued extraction job (flushed: its id is set), audited; Refused (400) by the rules above.
    Never commits."""
    checked_extractors(session, settings, request.extractors)
    if request.site is not None and not request.site.strip():
        raise Refused(400, "The site is empty: name a host, or leave the site out for every page.")
    params = request.params()
    job = create_job(session, "extract", params, actor.name, settings.lease.until())
    actor.record(session, Action.EXTRACT, f"job {job.id}", params)
    return job
