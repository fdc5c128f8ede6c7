"""What the annotate view's metadata fields start from (annotation/article_metadata.py: title, authors,
published): the saved gold's fields, or on a first visit each field from the best candidate that gives it, and
every candidate's value beside it.

The best candidate of a field is chosen as the text's prefill is (annotation/prefill.py): by the extractors'
ranking on the page's site by that field's metric (`title`, `authors`, `published`) when the leaderboard has one
and the site has enough gold, else in the order of the text's prefill (its extractor first, then the default,
then the others by name). The first extractor in that order whose extraction gives the field (a value, or "none
on the page": an extractor that does not give the field is passed over) prefills it, with the origin
"candidate:NAME" (annotation/provenance.py). Pure: no database, no Flask.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from .article_metadata import FIELDS


def field_candidates(found: Sequence[Mapping[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """field -> each distinct value the candidates (``{"name", "metadata"}``, in their order) give, with the
    names of those that give it: ``[{"value", "names"}]``."""
    values: dict[str, dict[str, dict[str, Any]]] = {field: {} for field in FIELDS}
    for candidate in found:
        metadata = candidate.get("metadata") or {}
        for field in FIELDS:
            if field in metadata:
                key = json.dumps(metadata[field])
                said = values[field].setdefault(key, {"value": metadata[field], "names": []})
                said["names"].append(candidate["name"])
    return {field: list(found_values.values()) for field, found_values in values.items()}


def prefilled(found: Sequence[Mapping[str, Any]], order: Mapping[str, Sequence[str]],
              fallback: Sequence[str]) -> dict[str, dict[str, Any]]:
    """field -> {"value", "from"} of the best candidate that gives it (``order``: the field's ranking, best
    first, when there is one; else ``fallback``, then the candidates in their order); fields no candidate gives
    are left out."""
    by_name = {candidate["name"]: candidate.get("metadata") or {} for candidate in found}
    chosen: dict[str, dict[str, Any]] = {}
    for field in FIELDS:
        names = [*(order.get(field) or fallback), *by_name]
        name = next((name for name in names if field in by_name.get(name, {})), None)
        if name is not None:
            chosen[field] = {"value": by_name[name][field], "from": f"candidate:{name}"}
    return chosen
