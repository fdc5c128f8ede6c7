"""A job step is a face too (the worker's), as a route or a command is: each step of webapp/steps/ calls the use
cases in the table below, as the user who started its job (`Actor.of_job`), and writes nothing of its own but its
job's bookkeeping (progress, stage, result and files): no audit record, job, row or score (tests/use_case_calls.py
reads them from its source). A step calls several where it reads, then stores, a few at a time in transactions of
its own. The system actor (`Actor.system`) is accepted by the one use case that says so: the checks that follow a
change of gold."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import pytest
from use_case_calls import calls_of

import webapp.usecases
from webapp.steps import STEPS
from webapp.usecases.outcome import role_of, system_may

STEP_USE_CASES = {
    "plan": {"plan_extraction"},
    "pairs": {"pairs_to_extract", "store_extractions"},
    "renderings": {"renderings_to_extract", "store_rendering_extractions"},
    "derive": {"compositions_to_derive", "composed_outputs", "store_extractions", "extracted_since",
               "refresh_after_extraction", "check_part"},
    "import": {"import_upload", "plan_extraction"},
    "capture": {"capture_urls"},
    "export": {"refresh_counts", "export_pages", "export_pipeline_choice"},
    "refresh": {"refresh_counts"},
    "check": {"check_part"},
}
"""Each job step and the use cases it calls."""

SYSTEM_MAY = {"check_part"}
"""The use cases the system actor may call: the checks that follow a save (usecases/follow_up_checks.py)."""


def test_every_step_is_in_the_table():
    assert set(STEPS) == set(STEP_USE_CASES)


@pytest.mark.parametrize("name", sorted(STEP_USE_CASES))
def test_a_step_calls_its_use_cases_and_writes_nothing_itself(name):
    calls = calls_of(STEPS[name])
    assert {use_case.__name__ for use_case in calls.use_cases} == STEP_USE_CASES[name]
    assert calls.writes == set()


def use_cases() -> dict[str, object]:
    """Every function of webapp/usecases/ that states a role, by name."""
    found = {}
    for module in pkgutil.iter_modules(webapp.usecases.__path__):
        loaded = importlib.import_module(f"webapp.usecases.{module.name}")
        for name, value in vars(loaded).items():
            if inspect.isfunction(value) and role_of(value) is not None and value.__module__ == loaded.__name__:
                found[name] = value
    return found


def test_the_system_may_call_only_the_use_cases_that_say_so():
    assert {name for name, use_case in use_cases().items() if system_may(use_case)} == SYSTEM_MAY
