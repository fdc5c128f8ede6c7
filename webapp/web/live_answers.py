"""Figures answered live: computed on the process's shared score cache under its lock, and the ETag of the
live refresh (the change log's epoch, the extraction epoch, the settings and the options: three rows
read, never a table scanned), answered with 304 before any work and without waiting for the cache's
lock."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

from flask import abort, jsonify, request
from sqlalchemy.orm import Session
from werkzeug.wrappers import Response

from ..results.cache import ScoreCache
from ..results.store import epochs
from ..usecases.outcome import Refused
from .app_settings import metrics, settings, shared_scores
from .db import get_session

Compute = Callable[[Session, ScoreCache], dict[str, Any]]
"""The figures of one answer, from the request's session and the synced cache."""


def computed(compute: Compute) -> dict[str, Any]:
    """compute(session, cache) with the cache synced and locked; a use case's refusal (an unknown
    extractor, an average the metric lacks) is answered with its status and reason."""
    session = get_session()
    with shared_scores().synced(session) as cache:
        try:
            return compute(session, cache)
        except Refused as error:
            abort(error.status, description=error.reason)
        except ValueError as error:  # a figure's input the use case did not name: still the client's mistake
            abort(400, description=str(error))


def settings_state() -> str:
    """What of the settings and the metric registry the figures depend on: the drift threshold
    (DRIFT_THRESHOLD_POINTS), the too-few rule (LEADERBOARD_MIN_SITE_PAGES), the page types (PAGE_TYPES,
    NO_CONTENT_TYPES, GUARD_ACCEPT_TYPES), and the metrics' versions and availability."""
    found = settings()
    versions = [(name, m.version, m.available) for name, m in metrics().items()]
    return repr((found.drift_threshold, found.min_site_pages, found.taxonomy, versions))


def live_tag(session: Session) -> str:
    """Changes whenever a figure these options show may have: the scores or gold (the change log's
    epoch), the extractions or the extractors' definitions (the extraction epoch), the settings, or the
    options. One read of three rows, whatever the size of the corpus."""
    score_epoch, _, extraction_epoch = epochs(session)
    state = f"{score_epoch}|{extraction_epoch}|{settings_state()}|{request.full_path}"
    return hashlib.sha256(state.encode()).hexdigest()[:32]


def conditional(compute: Compute, render: Callable[[dict[str, Any]], Response] = jsonify) -> Response:
    """The rendered figures with their ETag, or 304 Not Modified when unchanged: the tag is read before
    the cache's lock, so a poll never waits for a request that is building figures. The tag is read
    before the figures, which are then at least as new as it says (a newer change shows at the next
    poll)."""
    tag = live_tag(get_session())
    response = Response(status=304) if request.if_none_match.contains(tag) else render(computed(compute))
    response.set_etag(tag)
    response.headers["Cache-Control"] = "no-cache"
    return response
