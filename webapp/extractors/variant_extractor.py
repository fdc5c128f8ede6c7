"""A variant as an extractor: its base run under the variant's name with the base's options updated by its own.

Kept apart from the stored variants (extractors/variants.py, which reads and writes them through the database),
so that the crawl pipeline, which builds its pinned variants from pipeline.json, starts without importing
SQLAlchemy and the models (half a second of its start-up)."""

from __future__ import annotations

import shlex
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from .base import Extractor

SHOWN_MAX_CHARS = 60


def options_as_arguments(options: Mapping[str, Any]) -> str:
    """The options as the `--option` arguments that set them, quoted for the shell, each value cut to
    SHOWN_MAX_CHARS characters (a listing stays readable whatever a variant was given)."""
    return " ".join(shlex.quote(f"{key}={cut(str(value).lower() if isinstance(value, bool) else str(value))}")
                    for key, value in sorted(options.items()))


def cut(value: str) -> str:
    """A value as a listing shows it: at most SHOWN_MAX_CHARS characters, then its length."""
    return value if len(value) <= SHOWN_MAX_CHARS else f"{value[:SHOWN_MAX_CHARS]}… ({len(value):,} characters)"


def variant_of(base: Extractor, name: str, options: Mapping[str, Any]) -> Extractor:
    """The base run under the variant's name with its options updated by the variant's."""
    return replace(base, name=name, options={**base.options, **options},
                   description=f"variant of {base.name}: {options_as_arguments(options)}")
