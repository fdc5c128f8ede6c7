"""The metadata fields of the adjudication form: what the reviewer chooses from for each field, and the choice
read back into the result's metadata and each field's origin (annotation/provenance.py ``fields``).

Each field is a group of radio buttons, one per value the annotators gave (with who gave it), the gold's
value when the page is adjudicated already, "none on the page", "not annotated", and "typed" with a text
box (authors separated by ";"). The value of a button is a JSON object: ``{"value": V, "from": ORIGIN}``
(``value`` absent: not annotated). A field all annotators agree on starts chosen (automatic adjudication of
that field); one they disagree on starts with nothing chosen, and the form asks for a choice.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from ..annotation.article_metadata import FIELDS
from .request_input import TEXT, Form

LABELS = {"title": "Title", "authors": "Authors", "published": "Published"}
TYPED = "typed"
SEPARATOR = ";"
FORM_MARK = "metadata-form"  # a hidden input: the form carries the metadata fields (older forms do not)


METADATA_FORM = Form({FORM_MARK: TEXT, **{f"metadata-{field}": TEXT for field in FIELDS},
                      **{f"metadata-{field}-typed": TEXT for field in FIELDS}},
                     {f"metadata-{field}-typed": "" for field in FIELDS})
"""The metadata fields of the adjudication form (read by web/request_input.py; `chosen_metadata` reads their
choices)."""


class BadChoice(ValueError):
    """A field's choice that is not one the form offers; the message names the field."""


def shown(field: str, value: Any) -> str:
    """A value as the form shows it: "none on the page", the authors joined by "; "."""
    if value is None:
        return "none on the page"
    return f"{SEPARATOR} ".join(value) if field == "authors" else str(value)


def _option(value: Any, origin: str, label: str, checked: bool, *, annotated: bool = True) -> dict[str, Any]:
    said = {"value": value, "from": origin} if annotated else {"from": origin}
    return {"json": json.dumps(said, ensure_ascii=False), "label": label, "checked": checked}


def field_choices(annotations: Sequence[tuple[str, Mapping[str, Any] | None]],
                  start: Mapping[str, Any] | None) -> list[dict[str, Any]]:
    """For each field: its name, label and options (the annotators' distinct values, then the gold's
    ``start`` when given, none on the page, not annotated) with the one chosen to start with, and the typed
    text to start with."""
    choices = []
    for field in FIELDS:
        said = [(name, (metadata or {})) for name, metadata in annotations]
        values: dict[str, tuple[Any, list[str]]] = {}
        for name, metadata in said:
            key = json.dumps(metadata[field]) if field in metadata else "unset"
            values.setdefault(key, (metadata.get(field), []))[1].append(name)
        agreed = len(values) == 1 and bool(said)
        chosen = (json.dumps(start[field]) if field in start else "unset") if start is not None else (
            next(iter(values)) if agreed else None)
        options = []
        for key, (value, names) in values.items():
            label = f"{shown(field, value) if key != 'unset' else 'not annotated'} ({', '.join(names)})"
            options.append(_option(value, f"annotator:{names[0]}", label, key == chosen, annotated=key != "unset"))
        if start is not None and chosen not in values:
            gold = shown(field, start.get(field)) if field in start else "not annotated"
            options.append(_option(start.get(field), "gold", f"{gold} (the gold)", True, annotated=field in start))
        if "null" not in values and chosen != "null":
            options.append(_option(None, "none", "none on the page", False))
        if "unset" not in values and chosen != "unset":
            options.append(_option(None, TYPED, "not annotated", False, annotated=False))
        typed = shown(field, start[field]) if start and start.get(field) is not None else ""
        choices.append({"name": field, "label": LABELS[field], "options": options, "typed": typed,
                        "agreed": agreed})
    return choices


def chosen_metadata(form: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, str]] | None:
    """The metadata the form's choices say and each annotated field's origin; None when the form carries no
    metadata fields (keep the gold's); BadChoice naming the field whose choice is not one offered."""
    if form.get(FORM_MARK) is None:
        return None
    metadata: dict[str, Any] = {}
    origins: dict[str, str] = {}
    for field in FIELDS:
        raw = form.get(f"metadata-{field}")
        if raw is None:
            raise BadChoice(f"choose the {field} of the result (one of the annotators', none on the page, not "
                            "annotated, or typed)")
        if raw == TYPED:
            text = form[f"metadata-{field}-typed"].strip()
            if text:
                names = [name.strip() for name in text.split(SEPARATOR) if name.strip()]
                metadata[field] = names if field == "authors" else text
                origins[field] = TYPED
            continue
        try:
            said = json.loads(raw)
        except ValueError:
            said = None
        if not isinstance(said, dict) or not isinstance(said.get("from"), str):
            raise BadChoice(f"the choice of the {field} is not one the form offers")
        if "value" in said:
            metadata[field] = said["value"]
            origins[field] = said["from"]
    return metadata, origins
