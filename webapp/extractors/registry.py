"""The extractor registry: a plain dict name -> Extractor. An app builds its own at its first use (its
settings' `registry`, webapp/foundation/settings.py); code that runs without an app (a crawl's workers, the extractor
processes) reads `process_registry()`, built once per process. Nothing else builds one.

Built-ins are registered exactly as a third party's (webapp/foundation/plugins.py): entry points in the
`goldtext.extractors` group naming an `Extractor`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import cache
from types import MappingProxyType

from webapp.extractors.base import Extractor
from webapp.foundation import plugins

GROUP = "goldtext.extractors"

BUILTINS = plugins.entry_points_of(GROUP, (
    ("trafilatura", "webapp.extractors.with_trafilatura:TRAFILATURA"),
    ("trafilatura-precision", "webapp.extractors.with_trafilatura:TRAFILATURA_PRECISION"),
    ("trafilatura-recall", "webapp.extractors.with_trafilatura:TRAFILATURA_RECALL"),
    ("trafilatura-fast", "webapp.extractors.with_trafilatura:TRAFILATURA_FAST"),
    ("density", "webapp.extractors.density:DENSITY"),
    ("readability", "webapp.extractors.with_readability:READABILITY"),
    ("justext", "webapp.extractors.with_justext:JUSTEXT"),
    ("boilerpy3", "webapp.extractors.with_boilerpy3:BOILERPY3"),
    ("whole-page", "webapp.extractors.whole_page:WHOLE_PAGE"),
    ("site-rules", "webapp.extractors.site_rules:SITE_RULES"),
    ("resiliparse", "webapp.extractors.with_resiliparse:RESILIPARSE"),
    ("newspaper4k", "webapp.extractors.with_newspaper:NEWSPAPER"),
    ("goose3", "webapp.extractors.with_goose:GOOSE"),
    ("html-text", "webapp.extractors.with_html_text:HTML_TEXT"),
    ("inscriptis", "webapp.extractors.with_inscriptis:INSCRIPTIS"),
    ("magic-html", "webapp.extractors.with_magic_html:MAGIC_HTML"),
    ("readability-js", "webapp.extractors.with_readability_js:READABILITY_JS"),
    ("rs-trafilatura", "webapp.extractors.with_rust:RS_TRAFILATURA"),
    ("dom-smoothie", "webapp.extractors.with_rust:DOM_SMOOTHIE"),
    ("defuddle", "webapp.extractors.with_defuddle:DEFUDDLE"),
    ("go-trafilatura", "webapp.extractors.with_go:GO_TRAFILATURA"),
    ("go-domdistiller", "webapp.extractors.with_go:GO_DOMDISTILLER"),
    ("htmldate-fast", "webapp.extractors.with_htmldate:HTMLDATE_FAST"),
    ("htmldate-extensive", "webapp.extractors.with_htmldate:HTMLDATE_EXTENSIVE"),
    ("page-signals", "webapp.extractors.page_signals:PAGE_SIGNALS"),
))

METADATA_ONLY = ("htmldate-fast", "htmldate-extensive", "page-signals")
"""The built-ins that give the article's metadata and no text: scored on the metadata metrics only."""


class UnknownExtractor(ValueError):
    """A requested extractor name is not in the registry."""


class UnavailableExtractor(UnknownExtractor):
    """A requested extractor is registered but cannot run here (its package or program is missing)."""


def build_registry() -> dict[str, Extractor]:
    """A new dict of the built-ins plus every extractor installed in the entry-point group."""
    return plugins.build(GROUP, BUILTINS, Extractor)


@cache
def process_registry() -> Mapping[str, Extractor]:
    """The registry of code that runs without an app, built at its first use in the process (read-only)."""
    return MappingProxyType(build_registry())


def resolve(registry: Mapping[str, Extractor], names: Iterable[str]) -> list[Extractor]:
    """The extractors named, in order; UnknownExtractor names any missing and lists the known,
    UnavailableExtractor names any that cannot run here and says why."""
    names = list(names)
    unknown = [name for name in names if name not in registry]
    if unknown:
        raise UnknownExtractor(
            f"unknown extractor{'s' if len(unknown) > 1 else ''}: {', '.join(unknown)}"
            f" (known: {', '.join(sorted(registry))})"
        )
    unavailable = [registry[name] for name in names if not registry[name].available]
    if unavailable:
        raise UnavailableExtractor("; ".join(f"{e.name} is unavailable: {e.unavailable_reason}" for e in unavailable))
    return [registry[name] for name in names]


def runnable(registry: Mapping[str, Extractor]) -> list[Extractor]:
    """Every extractor of the registry that can run here, in order: what "all extractors" means."""
    return [extractor for extractor in registry.values() if extractor.available]
