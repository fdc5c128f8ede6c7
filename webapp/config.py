"""Default settings; `instance/config.py` and GOLDTEXT_* environment variables override them."""

from __future__ import annotations

import os
import secrets
import tempfile
from pathlib import Path
from typing import Any

from .vocabulary import ACCEPT_KINDS, NO_CONTENT_KINDS, PAGE_KINDS

ENV_PREFIX = "GOLDTEXT_"


def defaults(instance_path: str) -> dict[str, Any]:
    return {
        "DATABASE_URL": "sqlite:///" + str(Path(instance_path) / "goldtext.sqlite"),
        "MAX_CONTENT_LENGTH": 512 * 2**20,
        "IMPORT_MAX_BYTES": 20 * 2**20,
        "IMPORT_ZIP_MAX_MEMBERS": 20_000,
        "IMPORT_ZIP_MAX_TOTAL": 2 * 2**30,
        "EXTRACT_TIMEOUT": 60.0,
        "EXTRACT_MEMORY_MB": 2048,
        "GUARD_MIN_CHARS": 500,
        "GUARD_MIN_LONG_LINES": 2,
        "GUARD_LONG_LINE_CHARS": 150,
        "GUARD_MIN_RATIO": 0.01,
        "GUARD_ACCEPT_TYPES": list(ACCEPT_KINDS),
        "PAGE_TYPES": list(PAGE_KINDS),
        "NO_CONTENT_TYPES": list(NO_CONTENT_KINDS),
        "DEFAULT_EXTRACTOR": "trafilatura",
        "UPLOAD_EXTRACTORS": [],
        "RENDER_MAX_DEPTH": 512,
        "RENDER_MAX_BYTES": 5 * 2**20,
        "LEADERBOARD_MIN_SITE_PAGES": 5,
        "DRIFT_THRESHOLD_POINTS": 30.0,
        "BROKER_URL": "",
        "WORKER_CONCURRENCY": 2,
        "EXTRACT_WORKERS": 0,
        "JOB_LEASE_SECONDS": 30.0,
        "JOB_MAX_ATTEMPTS": 3,
        "JOB_CHUNK_PAIRS": 24,
        "SESSION_HOURS": 12.0,
        "LOGIN_MAX_FAILURES": 5,
        "LOGIN_WINDOW_MINUTES": 15.0,
        "OVERLAP": 1,
        "CHECK_LOW_SCORE": 0.5,
        "CHECK_UNKNOWN_WORDS": 0.02,
        "CHECK_SHORT_GOLD": 0.3,
        "CHECK_MIN_AGREEMENT": 0.8,
    }


def from_environment(base: dict[str, Any]) -> dict[str, Any]:
    """GOLDTEXT_<KEY> for every known key, parsed as the default's type (lists: comma-separated)."""
    found: dict[str, Any] = {}
    for key, default in base.items():
        value = os.environ.get(ENV_PREFIX + key)
        if value is None:
            continue
        if isinstance(default, list):
            found[key] = [item.strip() for item in value.split(",") if item.strip()]
            continue
        try:
            found[key] = type(default)(value)
        except ValueError as exc:
            raise ValueError(f"{ENV_PREFIX}{key}={value!r} is not a {type(default).__name__}") from exc
    return found


def secret_key(instance_path: str) -> str:
    """The secret key kept in instance/secret_key, generated on first use, never a default.

    Processes started together (several web processes, a worker) must agree on it: the key is written
    to a temporary file and linked into place, which fails if another process got there first, and
    then every process reads the one that won."""
    path = Path(instance_path) / "secret_key"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=".secret_key.")
        try:
            os.write(fd, secrets.token_hex(32).encode())
            os.close(fd)
            os.chmod(temporary, 0o600)
            try:
                os.link(temporary, path)
            except FileExistsError:
                pass
        finally:
            os.unlink(temporary)
    return path.read_text().strip()
