"""What an app's settings decide, built once by `create_app` and passed explicitly to the use cases and the
services: the page types, the metric and extractor registries, the import limits, the extraction's run
settings with the guard's thresholds, the jobs' lease, the overlap, the size limit of a gold text and the
process's shared score cache. Nothing below the faces reads `flask.current_app`: the faces take this object from the app
(`app.extensions[EXTENSION]`) and hand on what each call needs."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import cached_property
from typing import Any

from .annotation.prefill import MODES as PREFILL_MODES
from .annotation.prefill import POOLS as PREFILL_POOLS
from .capture.capture_settings import CaptureSettings
from .corpus.document import Limits
from .extractors.base import Extractor
from .extractors.extraction_service import RunSettings
from .extractors.registry import build_registry
from .models import utcnow
from .results import snapshot
from .results.cache import ScoreCache, SharedScores
from .scoring import Metric, build_metrics, eager
from .vocabulary import Taxonomy, configured_taxonomy

EXTENSION = "goldtext.settings"
"""Where an app keeps its settings object: `app.extensions[EXTENSION]`."""


@dataclass(frozen=True)
class Lease:
    """How long a claim lasts without renewal, and how many workers may lose a chunk before it fails."""

    seconds: float = 30.0
    max_attempts: int = 3

    def until(self, now: datetime | None = None) -> datetime:
        return (now or utcnow()) + timedelta(seconds=self.seconds)


@dataclass(frozen=True)
class Settings:
    taxonomy: Taxonomy
    metrics: Mapping[str, Metric]  # the metric registry (one dict per app: a test may replace an entry)
    shared: SharedScores  # the process's score cache, synced from the change log at each read
    limits: Limits  # IMPORT_MAX_BYTES, IMPORT_ZIP_MAX_MEMBERS, IMPORT_ZIP_MAX_TOTAL
    run: RunSettings  # EXTRACT_TIMEOUT, EXTRACT_MEMORY_MB and the guard's thresholds (GUARD_*)
    overlap: int  # OVERLAP, at least 1
    gold_max_bytes: int  # GOLD_MAX_BYTES: the largest gold or annotation text a save stores (UTF-8)
    default_extractor: str  # DEFAULT_EXTRACTOR
    prefill: str  # PREFILL: how the gold editor's prefill is chosen (annotation/prefill.py MODES)
    min_site_pages: int  # LEADERBOARD_MIN_SITE_PAGES
    drift_threshold: float  # DRIFT_THRESHOLD_POINTS
    lease: Lease  # JOB_LEASE_SECONDS, JOB_MAX_ATTEMPTS: how long a queued chunk waits before it counts as lost
    capture: CaptureSettings  # CAPTURE_*: what a capture may reach, its politeness and its limits
    check_delay: float = 5.0  # CHECK_DELAY_SECONDS: how long after a change of gold its checks run
    prefill_pool: str = "accepted"  # PREFILL_POOL: what PREFILL=random draws among (annotation/prefill.py POOLS)

    @cached_property
    def registry(self) -> Mapping[str, Extractor]:
        """The extractor registry, built at its first use (building it imports every extractor's library,
        which no start-up should wait for)."""
        return build_registry()

    @property
    def eager(self) -> Mapping[str, Metric]:
        """The metrics a gold save refreshes at once (the slow ones are refreshed by a job)."""
        return eager(self.metrics)


def build_settings(config: Mapping[str, Any], instance_path: str,
                   metrics: Mapping[str, Metric] | None = None) -> Settings:
    """The settings object of an app's settings (``instance_path``: where the score cache keeps its
    snapshot); ValueError naming a setting that is wrong."""
    metrics = build_metrics() if metrics is None else metrics
    stored = snapshot.path_for(instance_path, config["DATABASE_URL"])
    if config["PREFILL"] not in PREFILL_MODES:
        raise ValueError(f"PREFILL={config['PREFILL']!r} is not one of {', '.join(PREFILL_MODES)}")
    if config["PREFILL_POOL"] not in PREFILL_POOLS:
        raise ValueError(f"PREFILL_POOL={config['PREFILL_POOL']!r} is not one of {', '.join(PREFILL_POOLS)}")
    return Settings(
        taxonomy=configured_taxonomy(config),
        metrics=metrics,
        shared=SharedScores(ScoreCache(metrics, snapshot_path=stored)),
        limits=Limits.from_config(config),
        run=RunSettings.from_config(config),
        overlap=max(int(config["OVERLAP"]), 1),
        gold_max_bytes=int(config["GOLD_MAX_BYTES"]),
        default_extractor=config["DEFAULT_EXTRACTOR"],
        prefill=config["PREFILL"],
        min_site_pages=int(config["LEADERBOARD_MIN_SITE_PAGES"]),
        drift_threshold=float(config["DRIFT_THRESHOLD_POINTS"]),
        lease=Lease(float(config["JOB_LEASE_SECONDS"]), int(config["JOB_MAX_ATTEMPTS"])),
        capture=CaptureSettings.from_config(config),
        check_delay=max(float(config["CHECK_DELAY_SECONDS"]), 0.0),
        prefill_pool=config["PREFILL_POOL"],
    )


def settings_of(app: Any) -> Settings:
    """The settings object an app built at its creation."""
    return app.extensions[EXTENSION]
