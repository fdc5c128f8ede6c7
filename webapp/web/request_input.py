"""What a view reads from a request, read here only: each query string and HTML form a view reads is a
`Form`, a declared list of fields (name -> JSON Schema of its value, with its default), read from the request
and checked by `jsonschema`, the mechanism of the use cases' bodies (usecases/bodies.py); a JSON body is read
here and checked by its use case's schema. A value the declaration refuses answers 400 naming the field and
the reason, as an HTML page for a page or a form and as the JSON error of docs/api.md under /api/
(web/error_pages.py): `'limit' must be a whole number from 1 to 10000.`

A field's schema says how its text is read: "integer" a whole number (text that is not one is refused),
"boolean" a checkbox or flag ("1", "on", "true", "yes": true; absent: false), "array" a repeatable field (its
non-empty values, in order), a field with ``"contentMediaType": "application/json"`` the JSON it carries (text
that is not JSON is refused; its use case checks its shape), anything else the text as sent. An absent or
empty field takes its default (`Form.defaults`, else None), but for the fields named in `Form.empty`, whose
empty text is a value. A field's ``description`` is what the message says
it must be. A view that shows its form again with the reason catches `BadField`."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from flask import json, request
from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match
from werkzeug.datastructures import FileStorage, MultiDict
from werkzeug.exceptions import BadRequest

from ..usecases.bodies import reason
from .bad_input import ID_MAX, INT_MIN, clipped

TRUE = frozenset({"1", "on", "true", "yes"})


def whole(low: int = INT_MIN, high: int = ID_MAX, what: str = "a whole number") -> dict[str, Any]:
    """The schema of a whole-number field from ``low`` to ``high`` (by default the `Integer` columns' range)."""
    return {"type": "integer", "minimum": low, "maximum": high, "description": f"{what} from {low} to {high}"}


def one_of(*choices: str) -> dict[str, Any]:
    """The schema of a field that is one of these choices."""
    return {"enum": list(choices), "description": f"one of {', '.join(choices)}"}


TEXT: dict[str, Any] = {"type": "string"}
FLAG: dict[str, Any] = {"type": "boolean"}
TEXTS: dict[str, Any] = {"type": "array", "items": {"type": "string"}}
JSON: dict[str, Any] = {"contentMediaType": "application/json"}


class BadField(BadRequest):
    """A field's value that its declaration refuses: 400 naming the field (``field``) and the reason."""

    def __init__(self, field: str, description: str) -> None:
        super().__init__(description=description)
        self.field = field


@dataclass(frozen=True)
class Form:
    """A query string's or an HTML form's fields: name -> the JSON Schema of its value; ``defaults`` for the
    fields left out or empty."""

    fields: Mapping[str, Mapping[str, Any]]
    defaults: Mapping[str, Any] = field(default_factory=dict)
    empty: frozenset[str] = frozenset()
    validator: Draft202012Validator = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        schema = {"type": "object", "properties": dict(self.fields)}
        Draft202012Validator.check_schema(schema)
        object.__setattr__(self, "validator", Draft202012Validator(schema))  # frozen: set once, here

    def read(self, source: MultiDict[str, str]) -> dict[str, Any]:
        """The fields' values read from ``source``; 400 naming the first field the declaration refuses."""
        values = {name: "" if name in self.empty and source.get(name) == "" else _value(schema, source, name)
                  for name, schema in self.fields.items()}
        sent = {name: value for name, value in values.items() if value is not None}
        error = best_match(self.validator.iter_errors(sent))
        if error is not None:
            name = str(error.absolute_path[0]) if error.absolute_path else ""
            meant = self.fields.get(name, {}).get("description")
            raise BadField(name, f"{clipped(name)!r} must be {meant}." if meant else reason(error))
        return {name: self.defaults.get(name) if value is None else value for name, value in values.items()}


def _value(schema: Mapping[str, Any], source: MultiDict[str, str], name: str) -> Any:
    kind = schema.get("type")
    if kind == "array":
        item = schema.get("items", {})
        return [_read(item, value) for value in source.getlist(name) if value]
    raw = source.get(name)
    if kind == "boolean":
        return raw is not None and raw.lower() in TRUE
    if raw is None or raw == "":
        return None
    if schema.get("contentMediaType") == "application/json":
        try:
            return json.loads(raw)
        except ValueError as error:
            raise BadField(name, f"{clipped(name)}: {error}") from None
    return _read(schema, raw)


def _read(schema: Mapping[str, Any], raw: str) -> Any:
    if schema.get("type") == "integer":
        try:
            return int(raw)
        except ValueError:
            return raw  # the schema refuses it, naming the field
    return raw


def query(form: Form) -> dict[str, Any]:
    """The query string read by ``form``."""
    return form.read(request.args)


def posted(form: Form) -> dict[str, Any]:
    """The HTML form's fields read by ``form``."""
    return form.read(request.form)


def given(form: Form) -> dict[str, Any]:
    """The query string's and the form's fields (the form's first) read by ``form``."""
    return form.read(request.values)


def json_body() -> Any:
    """The request's JSON body (None when it sent none); its use case checks it against its schema."""
    return request.get_json(silent=True)


def sent_files(name: str) -> list[FileStorage]:
    """The files sent as ``name`` that have a file name."""
    return [upload for upload in request.files.getlist(name) if upload.filename]


def sent_back() -> MultiDict[str, str]:
    """The form as sent, for a page that shows it again after a refusal (never read for a value)."""
    return request.form


def carried() -> MultiDict[str, str]:
    """The query string as sent, for a template's links to carry along (never read for a value)."""
    return request.args
