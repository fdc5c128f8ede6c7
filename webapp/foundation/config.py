"""Default settings; `instance/config.py` and GOLDTEXT_* environment variables override them."""

from __future__ import annotations

import difflib
import os
import secrets
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .engine import BUSY_SECONDS
from .vocabulary import DEFAULT_ACCEPT_TYPES, DEFAULT_NO_CONTENT_TYPES, DEFAULT_PAGE_TYPES

ENV_PREFIX = "GOLDTEXT_"


def defaults(instance_path: str) -> dict[str, Any]:
    return {
        "DATABASE_URL": "sqlite:///" + str(Path(instance_path) / "goldtext.sqlite"),
        "SQLITE_BUSY_SECONDS": BUSY_SECONDS,
        "MAX_CONTENT_LENGTH": 512 * 2**20,
        "REQUEST_MAX_BYTES": 16 * 2**20,
        "IMPORT_MAX_BYTES": 20 * 2**20,
        "IMPORT_ZIP_MAX_MEMBERS": 20_000,
        "IMPORT_ZIP_MAX_TOTAL": 2 * 2**30,
        "EXTRACT_TIMEOUT": 60.0,
        "EXTRACT_MEMORY_MB": 2048,
        "GUARD_MIN_CHARS": 500,
        "GUARD_MIN_LONG_LINES": 2,
        "GUARD_LONG_LINE_CHARS": 150,
        "GUARD_MIN_RATIO": 0.01,
        "GUARD_ACCEPT_TYPES": list(DEFAULT_ACCEPT_TYPES),
        "PAGE_TYPES": list(DEFAULT_PAGE_TYPES),
        "NO_CONTENT_TYPES": list(DEFAULT_NO_CONTENT_TYPES),
        "DEFAULT_EXTRACTOR": "trafilatura",
        "PREFILL": "site-best",
        "PREFILL_POOL": "accepted",
        "UPLOAD_EXTRACTORS": [],
        "RENDER_MAX_DEPTH": 512,
        "RENDER_MAX_BYTES": 5 * 2**20,
        "LEADERBOARD_MIN_SITE_PAGES": 5,
        "DRIFT_THRESHOLD_POINTS": 30.0,
        "BROKER_URL": "",
        "WORKER_CONCURRENCY": 2,
        "EXTRACT_PROCESSES": 0,
        "JOB_LEASE_SECONDS": 30.0,
        "JOB_MAX_ATTEMPTS": 3,
        "JOB_CHUNK_PAIRS": 24,
        "SESSION_HOURS": 12.0,
        "SESSION_COOKIE_SECURE": False,
        "LOGIN_MAX_FAILURES": 5,
        "LOGIN_WINDOW_MINUTES": 15.0,
        "ALLOWED_HOSTS": [],
        "PROXY_HOPS": 0,
        "OVERLAP": 1,
        "CHECK_LOW_SCORE": 0.5,
        "CHECK_UNKNOWN_WORDS": 0.02,
        "CHECK_SHORT_GOLD": 0.3,
        "CHECK_MIN_AGREEMENT": 0.8,
        "CHECK_DELAY_SECONDS": 5.0,
        "CHECK_REPEAT_WORDS": 20,
        "GOLD_MAX_BYTES": 4 * 2**20,
        "EFFORT_IDLE_SECONDS": 60.0,
        "CAPTURE_ALLOWED_NETWORKS": [],
        "CAPTURE_ALLOWED_PORTS": ["80", "443"],
        "CAPTURE_USER_AGENT": "Goldtext",
        "CAPTURE_DELAY_SECONDS": 1.0,
        "CAPTURE_TIMEOUT_SECONDS": 20.0,
        "CAPTURE_TOTAL_SECONDS": 60.0,
        "CAPTURE_MAX_BYTES": 10 * 2**20,
        "CAPTURE_RETRIES": 2,
        "CAPTURE_MAX_URLS": 1000,
        "CAPTURE_RENDER_SECONDS": 30.0,
        "CAPTURE_RENDER_SCROLL": True,
        "CAPTURE_STYLE_MAX_BYTES": 5 * 2**20,
        "CONTROL_ALERT_F1": 0.8,
    }


# GOLDTEXT_* variables that are not settings: the instance folder (read before the settings) and the
# test suite's own (tests/conftest.py, tests/corpora.py, the serving and screenshot tests)
OTHER_VARIABLES = ("INSTANCE_PATH", "TEST_DATABASE_URL", "SHARED_CORPORA", "RETAKE_SCREENSHOTS",
                   "SERVING_POSTGRES", "SERVING_REDIS_URL")
TRUE, FALSE = ("1", "true", "yes", "on"), ("0", "false", "no", "off")
# Settings renamed: the old name is still read, as the new one, until the next release, with a warning
# naming the new one (docs/deployment.md).
RENAMED = {"EXTRACT_WORKERS": "EXTRACT_PROCESSES"}


def parsed(name: str, value: str, default: Any) -> Any:
    """An environment value read as the default's type: booleans (true/false, yes/no, on/off, 1/0),
    numbers, lists (comma-separated) and text. A value that is none of its type stops the app, naming it."""
    if isinstance(default, list):
        return [item.strip() for item in value.split(",") if item.strip()]
    if isinstance(default, bool):
        word = value.strip().lower()
        if word in TRUE or word in FALSE:
            return word in TRUE
        raise ValueError(f"{ENV_PREFIX}{name}={value!r} is not a boolean: say true or false")
    try:
        return type(default)(value.strip() if isinstance(default, int | float) else value)
    except ValueError as exc:
        raise ValueError(f"{ENV_PREFIX}{name}={value!r} is not a {type(default).__name__}") from exc


def from_environment(base: dict[str, Any], environ: Mapping[str, str] | None = None) -> dict[str, Any]:
    """GOLDTEXT_<KEY> for every known key, parsed as the default's type; a renamed setting's old
    variable counts as its new one when the new one is not set."""
    environ = os.environ if environ is None else environ
    values = {old: environ[ENV_PREFIX + old] for old in RENAMED if ENV_PREFIX + old in environ}
    found, _ = renamed(values)
    found.update((key, environ[ENV_PREFIX + key]) for key in base if ENV_PREFIX + key in environ)
    return {key: parsed(key, value, base[key]) for key, value in found.items()}


def renamed(values: Mapping[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """One source's settings (instance/config.py, the environment, a test's config) with each renamed
    setting's old name read as its new one, unless the source sets the new one too; and a warning for
    each old name found."""
    found = dict(values)
    warnings = []
    for old, new in RENAMED.items():
        if old in found:
            found.setdefault(new, found.pop(old))
            warnings.append(f"the setting {old} is now called {new}: rename it ({old} is read as {new} "
                            "until the next release)")
    return found, warnings


def unknown_variables(base: dict[str, Any], environ: Mapping[str, str] | None = None) -> list[str]:
    """A warning for each GOLDTEXT_* variable that names no setting (a typo is otherwise silently
    ignored), with the closest setting's name when one is close, and for each renamed setting's old name."""
    environ = os.environ if environ is None else environ
    known = [*base, *OTHER_VARIABLES]
    warnings = []
    for variable in sorted(environ):
        name = variable[len(ENV_PREFIX):]
        if variable.startswith(ENV_PREFIX) and name in RENAMED:
            warnings.append(f"{variable} is now called {ENV_PREFIX}{RENAMED[name]}: rename it ({variable} is read "
                            f"as {ENV_PREFIX}{RENAMED[name]} until the next release)")
        if not variable.startswith(ENV_PREFIX) or name in known or name in RENAMED:
            continue
        close = difflib.get_close_matches(name, known, n=1)
        hint = f": did you mean {ENV_PREFIX}{close[0]}?" if close else " (see the settings in docs/deployment.md)"
        warnings.append(f"{variable} is set but names no Goldtext setting; it is ignored{hint}")
    return warnings


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
