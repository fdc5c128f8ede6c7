"""Provenance: where a revision's text came from, recorded on the revision (models.RevisionFields).

    {"prefill": PREFILL, "lines": [ORIGIN, ...], "fields"?: {FIELD: ORIGIN, ...}}

PREFILL says what the editor started from: {"source": "extractor", "name", "fingerprint"?, "basis"?} (an
extractor's text; a site rule is the extractor "site-rules"), {"source": "gold", "version"} (the saved
gold or annotation, version N), {"source": "consensus"} (the annotators' agreed lines, in adjudication),
{"source": "import", "layout"?} (an import's text) or {"source": "none"} (an empty editor). ``lines``
holds one ORIGIN per line of the saved text (``text.split("\\n")``): how the line arrived (ORIGINS, or
"candidate:NAME" / "annotator:NAME"). ``fields``, when the revision has article metadata
(annotation/article_metadata.py), holds the origin of each field annotated: "candidate:NAME" (taken from
that extractor's value), "typed" (written or changed by the annotator), "none" (marked "none on the page"),
"prefill" (the prefilled value kept as it was), "gold", "import", "consensus" or "annotator:NAME".

The editors send it with a save (static/js/origins.js tracks it); the server checks its shape with the
request bodies' JSON Schemas (usecases/bodies.py `PROVENANCE`, built from the names here, and
`checked_provenance`, which also counts its lines) and makes it itself for the revisions it writes (an
import, a restore, an automatic adjudication). Pure: no database, no Flask.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from .article_metadata import FIELDS

ORIGINS = ("prefill", "gold", "block", "consensus", "typed", "edited", "import")
"""The origins a line may have besides those naming a candidate or an annotator."""
FIELD_ORIGINS = (*ORIGINS, "none")
"""The origins a metadata field may have besides those naming a candidate or an annotator ("none": marked
"none on the page")."""
NAMED = ("candidate:", "annotator:")
"""The origins that name where the line came from: an extractor's candidate, an annotator's text."""
NAME_MAX = 100  # an extractor's or an annotator's name (accounts/names.py, the extractor registry)
BASES = ("best", "default", "fixed", "random")
"""How the prefill's extractor was chosen (annotation/prefill.py)."""
PREFILL_FIELDS: dict[str, dict[str, tuple[type, bool]]] = {
    # source -> field -> (JSON type, required)
    "extractor": {"name": (str, True), "fingerprint": (str, False), "basis": (str, False)},
    "gold": {"version": (int, True)},
    "consensus": {},
    "import": {"layout": (str, False)},
    "none": {},
}
TEXT_MAX = 255  # the longest string a prefill field may hold (a fingerprint: models.Extraction.fingerprint)


def uniform(prefill: dict[str, Any], text: str, origin: str,
            metadata: dict[str, Any] | None = None) -> dict[str, Any]:
    """The provenance of a text whose every line has one origin (an import, an automatic adjudication, an
    editor as it starts), and of each field of its ``metadata`` annotated (the same origin)."""
    made: dict[str, Any] = {"prefill": prefill, "lines": [origin] * len(text.split("\n"))}
    if metadata:
        made["fields"] = {name: origin for name in FIELDS if name in metadata}
    return made


def imported(text: str, layout: str | None, metadata: dict[str, Any] | None = None) -> dict[str, Any]:
    """The provenance of a gold (and its ``metadata``) read from an import of ``layout`` (None: not known)."""
    prefill: dict[str, Any] = {"source": "import"} | ({"layout": layout} if layout else {})
    return uniform(prefill, text, "import", metadata)


def agreed(text: str, metadata: dict[str, Any] | None = None) -> dict[str, Any]:
    """The provenance of a gold adjudicated automatically: the annotators' text (and metadata) they all
    agree on."""
    return uniform({"source": "consensus"}, text, "consensus", metadata)


def summary(provenance: dict[str, Any] | None) -> dict[str, Any] | None:
    """What the history shows of a provenance: the prefill in words and the count of lines per origin
    (most first), or None when the revision recorded none."""
    if not provenance:
        return None
    counts = Counter(provenance.get("lines") or [])
    return {"prefill": prefill_said(provenance.get("prefill") or {}),
            "counts": sorted(counts.items(), key=lambda pair: (-pair[1], pair[0])),
            "fields": provenance.get("fields") or {}}


def prefill_said(prefill: dict[str, Any]) -> str:
    """The prefill in words, e.g. "extractor trafilatura (best)", "gold version 3", "import (jsonl)"."""
    source = prefill.get("source", "none")
    if source == "extractor":
        basis = f" ({prefill['basis']})" if prefill.get("basis") else ""
        return f"extractor {prefill.get('name')}{basis}"
    if source == "gold":
        return f"gold version {prefill.get('version')}"
    if source == "import":
        return f"import ({prefill['layout']})" if prefill.get("layout") else "import"
    return {"consensus": "the annotators' agreed lines", "none": "an empty editor"}.get(source, str(source))
