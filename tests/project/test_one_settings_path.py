"""One settings path (issue 32): every setting reaches the code through the app's `Settings`
(webapp/foundation/settings.py), read and checked when the app is made, so that a wrong setting stops the start
naming itself instead of failing each request that meets it; the extractor registry is built in one place for an app
and one for code without one."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from webapp import create_app
from webapp.foundation.settings import SettingError, settings_of

WEBAPP = Path(__file__).resolve().parents[2] / "webapp"
RAW_READ = re.compile(r"\b(?:app|current_app|host|ctx)\.config\b|\bconfig(?:\[|\.get\()\s*[\"'][A-Z]")
"""The app's config read or written as it stands (`app.config[...]`, `current_app.config.get(...)`, a
`config["SETTING"]` handed down), rather than through the settings object."""
READERS = {"__init__.py", "foundation/config.py", "foundation/settings.py"}
"""create_app loads the config, foundation/config.py holds its defaults and the environment's,
foundation/settings.py reads it."""


def sources() -> dict[str, str]:
    return {str(path.relative_to(WEBAPP)): path.read_text(encoding="utf-8") for path in WEBAPP.rglob("*.py")
            if not {"migrations", "node_modules", ".venv"} & set(path.parts)}


def test_no_module_but_the_settings_reads_the_app_config():
    found = {name: RAW_READ.findall(text) for name, text in sources().items() if name not in READERS}
    assert len(found) > 300  # the walk saw the packages
    assert {name: reads for name, reads in found.items() if reads} == {}


def test_the_extractor_registry_is_built_in_one_place_for_an_app_and_one_for_code_without_one():
    calls = {name: len(re.findall(r"(?<!def )build_registry\(\)", text)) for name, text in sources().items()}
    assert {name: count for name, count in calls.items() if count} == {"extractors/registry.py": 1,
                                                                          "foundation/settings.py": 1}


def test_the_metric_registry_is_built_by_the_settings_alone():
    calls = {name: len(re.findall(r"(?<!def )build_metrics\(\)", text)) for name, text in sources().items()}
    assert {name: count for name, count in calls.items() if count} == {"foundation/settings.py": 1}


def made(tmp_path: Path, **settings):
    return create_app({"TESTING": True, "INSTANCE_PATH": str(tmp_path), **settings})


@pytest.mark.parametrize(("settings", "message"), [
    ({"UPLOAD_EXTRACTORS": "trafilatura"},
     "the setting UPLOAD_EXTRACTORS is 'trafilatura', not a list of texts"),
    ({"UPLOAD_EXTRACTORS": ["trafilatura", "trafilatura"]}, "the setting UPLOAD_EXTRACTORS names an extractor twice"),
    ({"UPLOAD_EXTRACTORS": ["trafilatura, density"]},
     "the setting UPLOAD_EXTRACTORS names 'trafilatura, density', which is no extractor's name"),
    ({"OVERLAP": "two"}, "the setting OVERLAP is 'two', not an integer"),
    ({"WORKER_CONCURRENCY": 0}, "the setting WORKER_CONCURRENCY is 0: it must be at least 1"),
    ({"GOLD_MAX_BYTES": 2.5}, "the setting GOLD_MAX_BYTES is 2.5, not an integer"),
    ({"SESSION_COOKIE_SECURE": "yes"}, "the setting SESSION_COOKIE_SECURE is 'yes', not True or False"),
    ({"PREFILL": "best"}, "the setting PREFILL is 'best', not one of "),
    ({"ALLOWED_HOSTS": "goldtext.example.org"}, "the setting ALLOWED_HOSTS is 'goldtext.example.org', not a list"),
    ({"CAPTURE_ALLOWED_NETWORKS": ["10.0.0.0/33"]},
     "the setting CAPTURE_ALLOWED_NETWORKS or CAPTURE_ALLOWED_PORTS is wrong: CAPTURE_ALLOWED_NETWORKS: '10.0.0.0/33'"),
    ({"PAGE_TYPES": ["listing"]},
     "the setting PAGE_TYPES, NO_CONTENT_TYPES or GUARD_ACCEPT_TYPES is wrong: PAGE_TYPES must include 'article'"),
])
def test_a_wrong_setting_stops_the_start_naming_the_setting_and_why(tmp_path, settings, message):
    with pytest.raises(SettingError) as refused:
        made(tmp_path, **settings)
    assert str(refused.value).startswith(message)
    assert refused.value.name in str(refused.value)


def test_a_wrong_setting_in_the_environment_stops_the_start_too(tmp_path, monkeypatch):
    monkeypatch.setenv("GOLDTEXT_INSTANCE_PATH", str(tmp_path))
    monkeypatch.setenv("GOLDTEXT_JOB_CHUNK_PAIRS", "0")
    with pytest.raises(SettingError, match="the setting JOB_CHUNK_PAIRS is 0: it must be at least 1"):
        create_app()


def test_the_settings_are_grouped_and_read_as_their_types(tmp_path):
    settings = settings_of(made(tmp_path, UPLOAD_EXTRACTORS=["whole-page"], ALLOWED_HOSTS=["goldtext.example.org"],
                                WORKER_CONCURRENCY="3", BROKER_URL="redis://127.0.0.1:6379/0",
                                DATABASE_URL="sqlite:///elsewhere.sqlite", SQLITE_BUSY_SECONDS=5,
                                LOGIN_MAX_FAILURES=2, CHECK_REPEAT_WORDS=9))
    assert settings.upload_extractors == ("whole-page",)
    assert settings.serving.allowed_hosts == ("goldtext.example.org",)
    assert settings.serving.login.max_failures == 2
    assert (settings.workers.concurrency, settings.workers.broker_url) == (3, "redis://127.0.0.1:6379/0")
    assert (settings.database.url, settings.database.busy_seconds) == ("sqlite:///elsewhere.sqlite", 5.0)
    assert settings.checks.repeat_words == 9
