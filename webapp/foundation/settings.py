"""What an app's settings decide, read and checked once by `create_app` and passed explicitly to the use
cases and the services: the page types, the metric and extractor registries, the import limits, the
extraction's run settings with the guard's thresholds, the jobs' lease, the overlap, the size limit of a gold
text, the process's shared score cache, and, grouped, the database's address, the workers' and the web
face's settings and the gold checks' thresholds. This is the one module that reads the app's config: a
setting that is wrong stops `create_app` with a SettingError naming it and saying why. Nothing below the
faces reads `flask.current_app`: the faces take this object from the app (`app.extensions[EXTENSION]`) and
hand on what each call needs."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import cached_property
from typing import Any

from ..accounts.login import LoginPolicy
from ..annotation.prefill import MODES as PREFILL_MODES
from ..annotation.prefill import POOLS as PREFILL_POOLS
from ..capture.addresses import AddressRules
from ..capture.capture_settings import CaptureSettings
from ..capture.fetcher import FetchLimits
from ..capture.render_limits import RenderLimits
from ..corpus.document import Limits
from ..extractors.base import Extractor
from ..extractors.extraction_service import RunSettings
from ..extractors.guard import GuardThresholds
from ..extractors.registry import build_registry
from ..models import utcnow
from ..results import snapshot
from ..results.cache import ScoreCache, SharedScores
from ..scoring import Metric, build_metrics, eager
from ..scoring.gold_checks import Thresholds
from .engine import DatabaseAddress
from .vocabulary import Taxonomy, taxonomy

EXTENSION = "goldtext.settings"
"""Where an app keeps its settings object: `app.extensions[EXTENSION]`."""
BROKER_SCHEMES = ("redis://", "rediss://", "unix://")
"""What a BROKER_URL may start with (jobs/broker.py: Redis)."""

class SettingError(ValueError):
    """A setting that is wrong: the app does not start. The message names the setting and says why."""

    def __init__(self, name: str, reason: str) -> None:
        super().__init__(f"the setting {name} {reason}")
        self.name = name
        self.reason = reason


@dataclass(frozen=True)
class Lease:
    """How long a claim lasts without renewal, and how many workers may lose a chunk before it fails."""

    seconds: float = 30.0
    max_attempts: int = 3

    def until(self, now: datetime | None = None) -> datetime:
        return (now or utcnow()) + timedelta(seconds=self.seconds)


@dataclass(frozen=True)
class Workers:
    """Who runs the jobs, and how: the broker (BROKER_URL, empty for the embedded queue), the threads of a
    worker (WORKER_CONCURRENCY), its extractor processes (EXTRACT_PROCESSES, 0: one per core) and the pairs
    of one chunk of an extraction (JOB_CHUNK_PAIRS)."""

    broker_url: str
    concurrency: int
    extract_processes: int
    chunk_pairs: int


@dataclass(frozen=True)
class Serving:
    """What the web face decides: the Host names it answers to (ALLOWED_HOSTS), the proxies before it
    (PROXY_HOPS), the largest bodies (MAX_CONTENT_LENGTH for uploads, REQUEST_MAX_BYTES for the rest),
    secure cookies (SESSION_COOKIE_SECURE), the login policy (LOGIN_MAX_FAILURES, LOGIN_WINDOW_MINUTES,
    SESSION_HOURS), the largest page it renders (RENDER_MAX_DEPTH, RENDER_MAX_BYTES), the longest pause the
    effort counter counts (EFFORT_IDLE_SECONDS) and the control pages' alert (CONTROL_ALERT_F1)."""

    allowed_hosts: tuple[str, ...]
    proxy_hops: int
    max_content_length: int | None
    request_max_bytes: int | None
    secure_cookies: bool
    login: LoginPolicy
    render_max_depth: int
    render_max_bytes: int
    effort_idle_seconds: float
    control_alert_f1: float


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
    database: DatabaseAddress  # DATABASE_URL, SQLITE_BUSY_SECONDS
    workers: Workers  # BROKER_URL, WORKER_CONCURRENCY, EXTRACT_PROCESSES, JOB_CHUNK_PAIRS
    serving: Serving  # what the web face decides (see Serving)
    checks: Thresholds  # CHECK_LOW_SCORE, CHECK_UNKNOWN_WORDS, CHECK_SHORT_GOLD, CHECK_MIN_AGREEMENT, ...
    upload_extractors: tuple[str, ...]  # UPLOAD_EXTRACTORS: what a browser upload runs (empty: every one)
    check_delay: float = 5.0  # CHECK_DELAY_SECONDS: how long after a change of gold its checks run
    prefill_pool: str = "accepted"  # PREFILL_POOL: what PREFILL=random draws among (annotation/prefill.py POOLS)

    @cached_property
    def registry(self) -> Mapping[str, Extractor]:
        """The app's extractor registry, built at its first use (building it imports every extractor's
        library, which no start-up should wait for). Code without an app reads `process_registry()`."""
        return build_registry()

    @property
    def eager(self) -> Mapping[str, Metric]:
        """The metrics a gold save refreshes at once (the slow ones are refreshed by a job)."""
        return eager(self.metrics)

    def check_settings(self) -> dict[str, float]:
        """The checks' settings by name, as the checks page lists them."""
        return {"CHECK_DELAY_SECONDS": self.check_delay, "CHECK_LOW_SCORE": self.checks.low_score,
                "CHECK_MIN_AGREEMENT": self.checks.min_agreement, "CHECK_REPEAT_WORDS": self.checks.repeat_words,
                "CHECK_SHORT_GOLD": self.checks.short_gold, "CHECK_UNKNOWN_WORDS": self.checks.unknown_words}


class Read:
    """The app's config, read setting by setting as the type each must have; SettingError for one that is not."""

    def __init__(self, config: Mapping[str, Any]) -> None:
        self.config = config

    def __call__(self, name: str) -> Any:
        return self.config[name]

    def number(self, name: str, kind: type[int] | type[float], minimum: float | None = None) -> Any:
        value = self.config[name]
        try:
            if isinstance(value, bool) or (kind is int and isinstance(value, float) and not value.is_integer()):
                raise ValueError
            number = kind(value)
        except (TypeError, ValueError):
            raise SettingError(name, f"is {value!r}, not {'an integer' if kind is int else 'a number'}") from None
        if minimum is not None and number < minimum:
            raise SettingError(name, f"is {value!r}: it must be at least {minimum}")
        return number

    def integer(self, name: str, minimum: int | None = None) -> int:
        return int(self.number(name, int, minimum))

    def real(self, name: str, minimum: float | None = None) -> float:
        return float(self.number(name, float, minimum))

    def optional_size(self, name: str) -> int | None:
        """A size in bytes, or None (or 0) for no limit."""
        return self.integer(name, 0) or None if self.config.get(name) is not None else None

    def text(self, name: str) -> str:
        value = self.config[name]
        if not isinstance(value, str):
            raise SettingError(name, f"is {value!r}, not a text")
        return value

    def flag(self, name: str) -> bool:
        value = self.config[name]
        if not isinstance(value, bool):
            raise SettingError(name, f"is {value!r}, not True or False")
        return value

    def names(self, name: str) -> tuple[str, ...]:
        """A list of texts (a text alone is refused: it is not read letter by letter)."""
        value = self.config[name]
        if isinstance(value, str) or not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
            raise SettingError(name, f"is {value!r}, not a list of texts (say [\"a\", \"b\"], or a,b in "
                                     "the environment)")
        return tuple(value)

    def choice(self, name: str, choices: tuple[str, ...]) -> str:
        value = self.config[name]
        if value not in choices:
            raise SettingError(name, f"is {value!r}, not one of {', '.join(choices)}")
        return value


@contextmanager
def naming(name: str) -> Iterator[None]:
    """A ValueError raised while one setting is read becomes a SettingError naming it."""
    try:
        yield
    except SettingError:
        raise
    except ValueError as error:
        raise SettingError(name, f"is wrong: {error}") from None


def extractor_names(read: Read, name: str) -> tuple[str, ...]:
    """A list of extractor names, each once; whether each can run here is checked where the stored variants
    and compositions are known (`goldtext run`, `goldtext serve`, the upload itself)."""
    names = read.names(name)
    wrong = [n for n in names if not n.strip() or n != n.strip() or "," in n]
    if wrong:
        raise SettingError(name, f"names {wrong[0]!r}, which is no extractor's name (one name a list entry)")
    if len(set(names)) < len(names):
        raise SettingError(name, "names an extractor twice")
    return names


def build_settings(config: Mapping[str, Any], instance_path: str,
                   metrics: Mapping[str, Metric] | None = None) -> Settings:
    """The settings object of an app's config (``instance_path``: where the score cache keeps its
    snapshot); SettingError naming a setting that is wrong."""
    read = Read(config)
    metrics = build_metrics() if metrics is None else metrics
    database = DatabaseAddress(read.text("DATABASE_URL"), read.real("SQLITE_BUSY_SECONDS", 0))
    with naming("PAGE_TYPES, NO_CONTENT_TYPES or GUARD_ACCEPT_TYPES"):
        types = taxonomy(read.names("PAGE_TYPES"), read.names("NO_CONTENT_TYPES"), read.names("GUARD_ACCEPT_TYPES"))
    guard = GuardThresholds(read.integer("GUARD_MIN_CHARS", 0), read.integer("GUARD_MIN_LONG_LINES", 0),
                            read.integer("GUARD_LONG_LINE_CHARS", 0), read.real("GUARD_MIN_RATIO", 0))
    return Settings(
        taxonomy=types,
        metrics=metrics,
        shared=SharedScores(ScoreCache(metrics, snapshot_path=snapshot.path_for(instance_path, database.url))),
        limits=Limits(read.integer("IMPORT_MAX_BYTES", 1), read.integer("IMPORT_ZIP_MAX_MEMBERS", 1),
                      read.integer("IMPORT_ZIP_MAX_TOTAL", 1)),
        run=RunSettings(None, read.real("EXTRACT_TIMEOUT", 0), read.integer("EXTRACT_MEMORY_MB", 0), guard),
        overlap=max(read.integer("OVERLAP"), 1),
        gold_max_bytes=read.integer("GOLD_MAX_BYTES", 1),
        default_extractor=read.text("DEFAULT_EXTRACTOR"),
        prefill=read.choice("PREFILL", PREFILL_MODES),
        min_site_pages=read.integer("LEADERBOARD_MIN_SITE_PAGES", 0),
        drift_threshold=read.real("DRIFT_THRESHOLD_POINTS", 0),
        lease=Lease(read.real("JOB_LEASE_SECONDS", 0), read.integer("JOB_MAX_ATTEMPTS", 1)),
        capture=capture_settings(read),
        check_delay=max(read.real("CHECK_DELAY_SECONDS"), 0.0),
        prefill_pool=read.choice("PREFILL_POOL", PREFILL_POOLS),
        database=database,
        workers=Workers(broker_url(read), read.integer("WORKER_CONCURRENCY", 1),
                        read.integer("EXTRACT_PROCESSES", 0), read.integer("JOB_CHUNK_PAIRS", 1)),
        serving=serving(read),
        checks=Thresholds(read.real("CHECK_LOW_SCORE"), read.real("CHECK_UNKNOWN_WORDS"), read.real("CHECK_SHORT_GOLD"),
                          read.real("CHECK_MIN_AGREEMENT"), read.integer("CHECK_REPEAT_WORDS", 1)),
        upload_extractors=extractor_names(read, "UPLOAD_EXTRACTORS"),
    )


def broker_url(read: Read) -> str:
    """BROKER_URL: empty for the embedded queue, else a Redis URL."""
    url = read.text("BROKER_URL")
    if url and not url.startswith(BROKER_SCHEMES):
        shown = f"{url.split('://', 1)[0]}://***@{url.split('@', 1)[1]}" if "@" in url and "://" in url else url
        raise SettingError("BROKER_URL", f"is {shown!r}: it must be a redis://, rediss:// or unix:// URL (or empty "
                                         "for the embedded broker)")
    return url


def capture_settings(read: Read) -> CaptureSettings:
    """CAPTURE_*: a wrong entry of CAPTURE_ALLOWED_NETWORKS or CAPTURE_ALLOWED_PORTS stops the start, naming it."""
    limits = FetchLimits(timeout=read.real("CAPTURE_TIMEOUT_SECONDS", 0), total=read.real("CAPTURE_TOTAL_SECONDS", 0),
                         max_bytes=read.integer("CAPTURE_MAX_BYTES", 1), retries=read.integer("CAPTURE_RETRIES", 0),
                         agent=read.text("CAPTURE_USER_AGENT"))
    with naming("CAPTURE_ALLOWED_NETWORKS or CAPTURE_ALLOWED_PORTS"):
        rules = AddressRules.from_settings(read("CAPTURE_ALLOWED_NETWORKS"), read("CAPTURE_ALLOWED_PORTS"))
    return CaptureSettings(rules, limits, read.real("CAPTURE_DELAY_SECONDS", 0), read.integer("CAPTURE_MAX_URLS", 1),
                           RenderLimits(read.real("CAPTURE_RENDER_SECONDS", 0), read.flag("CAPTURE_RENDER_SCROLL")),
                           read.integer("CAPTURE_STYLE_MAX_BYTES", 0))


def serving(read: Read) -> Serving:
    login = LoginPolicy(read.integer("LOGIN_MAX_FAILURES", 1), timedelta(minutes=read.real("LOGIN_WINDOW_MINUTES", 0)),
                        timedelta(hours=read.real("SESSION_HOURS", 0)))
    return Serving(allowed_hosts=read.names("ALLOWED_HOSTS"), proxy_hops=read.integer("PROXY_HOPS", 0),
                   max_content_length=read.optional_size("MAX_CONTENT_LENGTH"),
                   request_max_bytes=read.optional_size("REQUEST_MAX_BYTES"),
                   secure_cookies=read.flag("SESSION_COOKIE_SECURE"), login=login,
                   render_max_depth=read.integer("RENDER_MAX_DEPTH", 1),
                   render_max_bytes=read.integer("RENDER_MAX_BYTES", 1),
                   effort_idle_seconds=max(read.real("EFFORT_IDLE_SECONDS"), 1.0),
                   control_alert_f1=read.real("CONTROL_ALERT_F1"))


def settings_of(app: Any) -> Settings:
    """The settings object an app built at its creation."""
    return app.extensions[EXTENSION]
