"""The app's settings turned into the services' own settings objects (import limits, extraction runs)."""

from __future__ import annotations

from flask import current_app

from .corpus.document import Limits
from .extraction import RunSettings
from .extractors.guard import GuardThresholds


def import_limits() -> Limits:
    cfg = current_app.config
    return Limits(
        max_bytes=cfg["IMPORT_MAX_BYTES"],
        zip_max_members=cfg["IMPORT_ZIP_MAX_MEMBERS"],
        zip_max_total=cfg["IMPORT_ZIP_MAX_TOTAL"],
    )


def run_settings(jobs: int | None = None) -> RunSettings:
    cfg = current_app.config
    return RunSettings(
        workers=jobs,
        timeout=cfg["EXTRACT_TIMEOUT"],
        memory_mb=cfg["EXTRACT_MEMORY_MB"],
        guard=GuardThresholds(
            min_chars=cfg["GUARD_MIN_CHARS"],
            min_long_lines=cfg["GUARD_MIN_LONG_LINES"],
            long_line_chars=cfg["GUARD_LONG_LINE_CHARS"],
            min_ratio=cfg["GUARD_MIN_RATIO"],
        ),
    )
