"""What every extractor is and returns: plain text, one paragraph per line, its Markdown where the extractor
keeps structure, what it says about the article (title, authors, date: extractors/article_fields.py), plus
metadata."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, version
from typing import Any

EXTRA_HINT = "pip install 'goldtext[extractors]'"
"""How to install the packages of the optional extractors (the `extractors` extra)."""

# Options whose canonical JSON is longer than this (site rules, say) appear in the fingerprint
# as a short sha256 instead of verbatim.
MAX_INLINE_OPTIONS = 100


@dataclass(frozen=True)
class Extracted:
    """An extractor's output: the text, one paragraph per line, JSON-serialisable metadata, the Markdown
    of what it kept where it keeps structure (None: text only; its Markdown is then the text, escaped), and the
    article's metadata in Goldtext's one shape (extractors/article_fields.py; None: it gives none)."""

    text: str
    metadata: dict
    markdown: str | None = None
    article_metadata: dict[str, Any] | None = None


@dataclass(frozen=True)
class Extractor:
    """A named, versioned extractor: `func(html, url, **options)` returns an `Extracted`.

    `func` must be a module-level function so that the extractor pickles into worker processes; its
    keyword parameters with a default are the options a variant may set (webapp/extractors/variants.py).
    An extractor whose package (or program) is missing here is registered all the same, with
    `unavailable_reason` saying what is missing and how to install it: it is listed, never run.
    """

    name: str
    version: str
    func: Callable[..., Extracted]
    options: Mapping[str, Any]
    description: str
    unavailable_reason: str | None = None
    structure: bool = False
    """Whether it gives Markdown (headings, lists, tables, code kept); one that gives text only is scored on
    structure as text with none."""
    parts: tuple[str, ...] = ()
    """A composition's parts (extractors/compositions.py): it is read from their stored extractions, never run."""
    article_fields: tuple[str, ...] = ()
    """The article's metadata fields it gives (title, authors, published, sitename, language): a failed call
    counts as finding none of them; the fields it does not give are never scored for it."""

    @property
    def available(self) -> bool:
        return self.unavailable_reason is None

    def __call__(self, html: str, url: str | None = None) -> Extracted:
        if self.unavailable_reason is not None:
            raise RuntimeError(f"extractor {self.name!r} is unavailable: {self.unavailable_reason}")
        result = self.func(html, url, **self.options)
        if not isinstance(result, Extracted):
            kind = type(result).__name__
            raise TypeError(f"extractor {self.name!r} returned {kind}, not Extracted")
        return result

    @property
    def fingerprint(self) -> str:
        """name|version|options: equal fingerprints promise equal output for the same page."""
        options = canonical_json(self.options)
        if len(options) > MAX_INLINE_OPTIONS:
            options = "sha256:" + hashlib.sha256(options.encode()).hexdigest()[:16]
        return f"{self.name}|{self.version}|{options}"


def canonical_json(value: Any) -> str:
    """Compact JSON with sorted keys: the same options always give the same string."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def package_version(distribution: str) -> str:
    """'trafilatura 2.3.1': the installed version of the distribution that does the work."""
    return f"{distribution} {version(distribution)}"


def optional_package(distribution: str, hint: str = EXTRA_HINT) -> tuple[str, str | None]:
    """(version, None) for an installed distribution, as `package_version` gives it; for a missing one
    ("DISTRIBUTION not installed", the reason it is unavailable, with the install hint)."""
    try:
        return package_version(distribution), None
    except PackageNotFoundError:
        return f"{distribution} not installed", f"{distribution} is not installed: {hint}"
