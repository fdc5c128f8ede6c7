"""The request bodies the use cases take, each declared once as a JSON Schema and checked by `jsonschema`
(whatever face sent it: the API's JSON, the adjudication form read into the same shape). A body that does
not match is refused (400) naming the field and the reason; what the schema cannot say (a page type the
settings name, a text's size in bytes, the snippets' cleaning) is checked after it (usecases/fields.py).

To take a new field in a save, add it to SAVE_FIELDS (required) or SAVE_OPTIONAL (may be left out)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from jsonschema import Draft202012Validator, FormatChecker
from jsonschema.exceptions import ValidationError, best_match

from ..annotation.article_metadata import FIELDS
from ..annotation.effort_record import ACTIONS, MAX_COUNT, MAX_SECONDS
from ..annotation.provenance import BASES, FIELD_ORIGINS, NAMED, ORIGINS, PREFILL_FIELDS, TEXT_MAX
from ..annotation.provenance import NAME_MAX as ORIGIN_NAME_MAX
from .outcome import Refused

SAVE_ID_MAX = 64
NAME_MAX = 200  # an extractor's or a site's name in a request

TEXT = {"type": "string"}
WHOLE = {"type": "integer"}
SNIPPETS = {"type": ["object", "null"]}  # their shape: vocabulary.checked_snippets, as the importers check them
NO_NUL = "^[^\\x00]*$"


def _prefill_field(source: str, name: str, kind: type) -> dict[str, Any]:
    if kind is int:
        return {"type": "integer", **({"minimum": 1, "description": "a saved version (1 or more)"}
                                      if source == "gold" else {})}
    if name == "basis":
        return {"enum": list(BASES)}
    return {"type": "string", "minLength": 1, "maxLength": TEXT_MAX, "pattern": NO_NUL,
            "description": f"1 to {TEXT_MAX} characters, no NUL"}


PREFILL = {
    # what the editor started from (annotation/provenance.py PREFILL_FIELDS): one shape per source
    "type": "object",
    "required": ["source"],
    "properties": {"source": {"enum": list(PREFILL_FIELDS)}},
    "allOf": [{"if": {"required": ["source"], "properties": {"source": {"const": source}}},
               "then": {"required": [name for name, (_, required) in fields.items() if required],
                        "additionalProperties": False,
                        "properties": {"source": True, **{name: _prefill_field(source, name, kind)
                                                          for name, (kind, _) in fields.items()}}}}
              for source, fields in PREFILL_FIELDS.items()],
}
ORIGIN_SAID = (f"an origin: one of {', '.join(ORIGINS)}, or candidate:NAME, annotator:NAME with a name of 1 to "
               f"{ORIGIN_NAME_MAX} characters, no NUL")
ORIGIN = {
    # how a line arrived: one of ORIGINS, or a named one (candidate:NAME, annotator:NAME)
    "anyOf": [{"enum": list(ORIGINS)},
              {"type": "string", "pattern": f"^({'|'.join(NAMED)})[^\\x00]{{1,{ORIGIN_NAME_MAX}}}$",
               "description": ORIGIN_SAID}],
    "description": ORIGIN_SAID,
}
FIELD_ORIGIN_SAID = (f"an origin: one of {', '.join(FIELD_ORIGINS)}, or candidate:NAME, annotator:NAME with a name of "
                     f"1 to {ORIGIN_NAME_MAX} characters, no NUL")
FIELD_ORIGIN_OF = {
    # where each metadata field came from (annotation/provenance.py FIELD_ORIGINS)
    "type": "object",
    "propertyNames": {"enum": list(FIELDS)},
    "additionalProperties": {
        "anyOf": [{"enum": list(FIELD_ORIGINS)},
                  {"type": "string", "pattern": f"^({'|'.join(NAMED)})[^\\x00]{{1,{ORIGIN_NAME_MAX}}}$"}],
        "description": FIELD_ORIGIN_SAID},
    "description": "an object of metadata fields and their origins",
}
PROVENANCE_SHAPE = {
    # where a revision's text came from (annotation/provenance.py); its lines' count is checked after it
    "type": "object",
    "required": ["prefill", "lines"],
    "additionalProperties": False,
    "properties": {"prefill": PREFILL, "lines": {"type": "array", "items": ORIGIN,
                                                 "description": "one origin per line of the text"},
                   "fields": FIELD_ORIGIN_OF},
}
PROVENANCE = {**PROVENANCE_SHAPE, "type": ["object", "null"]}  # in a body: null, not recorded
EFFORT = {
    # what the save's time and actions were (annotation/effort_record.py); null: not recorded
    "type": ["object", "null"],
    "required": ["active_seconds"],
    "additionalProperties": False,
    "properties": {
        "active_seconds": {"type": "number", "minimum": 0, "maximum": MAX_SECONDS, "format": "finite",
                           "description": f"the active seconds: a number from 0 to {MAX_SECONDS:g}"},
        "actions": {"type": "object", "propertyNames": {"enum": list(ACTIONS)},
                    "additionalProperties": {"type": "integer", "minimum": 0, "maximum": MAX_COUNT,
                                             "description": f"a count: an integer from 0 to {MAX_COUNT}"},
                    "description": "an object of action names and their counts"},
    },
}
FORMATS = FormatChecker(formats=())


@FORMATS.checks("finite")
def finite(value: Any) -> bool:
    """A number that is one: JSON as Python reads it may carry NaN and Infinity."""
    return not isinstance(value, float) or math.isfinite(value)
METADATA = {"type": ["object", "null"]}  # its shape: annotation/article_metadata.py (usecases/fields.py)


def body_schema(required: Mapping[str, Any], optional: Mapping[str, Any]) -> Draft202012Validator:
    """The validator of a JSON object with these fields (name -> schema); other fields are ignored."""
    schema = {"type": "object", "required": list(required), "properties": {**required, **optional}}
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema, format_checker=FORMATS)


SAVE_FIELDS: dict[str, Any] = {
    "type": TEXT,
    "status": TEXT,
    "version": WHOLE,  # the version the save edited
    "client_save_id": {"type": "string", "minLength": 1, "maxLength": SAVE_ID_MAX},  # a retry sends the same
}
SAVE_OPTIONAL: dict[str, Any] = {
    "markdown": TEXT,  # the gold as Markdown; its plain text is derived (usecases/fields.py saved_views)
    "text": TEXT,  # without markdown (older clients): the gold as plain text, its Markdown escaped from it
    "snippets": SNIPPETS,
    "provenance": PROVENANCE,  # the revision facts (save.REVISION_FACTS); null: none
    "effort": EFFORT,
    "guideline_version": {"type": ["integer", "null"]},
    "metadata": METADATA,  # title, authors, published; absent or null: keep the current fields
}
SAVE = body_schema(SAVE_FIELDS, SAVE_OPTIONAL)
"""A save of a page's gold or of one's annotation (`POST /api/pages/ID/gold`)."""

ADJUDICATION = body_schema({"version": WHOLE, "type": TEXT, "status": TEXT, "note": TEXT},
                           {"markdown": TEXT, "text": TEXT, "snippets": SNIPPETS, "effort": EFFORT,
                            "provenance": PROVENANCE, "metadata": METADATA})
"""A reviewer's result (the adjudication form)."""

EXTRACTION = body_schema(
    {},
    {"extractors": {"type": "array", "items": {"type": "string", "minLength": 1, "maxLength": NAME_MAX}},
     "site": {"type": ["string", "null"], "maxLength": NAME_MAX},
     "force": {"type": "boolean"},
     "outdated": {"type": "boolean"}},
)
"""The start of an extraction (`POST /api/extractions`)."""

PREVIEW = body_schema({"markdown": TEXT}, {})
"""A Markdown text to preview (`POST /api/preview`)."""

PROVENANCE_FIELD = body_schema({"provenance": PROVENANCE_SHAPE}, {})
"""A provenance on its own (an imported gold's or annotation's)."""

EFFORT_FIELD = body_schema({"effort": {**EFFORT, "type": "object"}}, {})
"""An effort on its own (one of an imported export's history)."""


def validated(validator: Draft202012Validator, body: Any) -> dict[str, Any]:
    """The body if it matches the schema; Refused (400) naming the field and the reason otherwise."""
    error = best_match(validator.iter_errors(body))
    if error is not None:
        raise Refused(400, reason(error))
    return body


def reason(error: ValidationError) -> str:
    """What is wrong, naming the field (its path in the body: 'snippets', 'extractors'[0])."""
    if not error.absolute_path:
        if error.validator == "type":
            return "Send a JSON object."
        return f"{error.message}."
    head, *rest = error.absolute_path
    where = repr(head) + "".join(f"[{part!r}]" for part in rest)
    meant = error.schema.get("description") if isinstance(error.schema, dict) else None
    return f"{where}: {error.message}" + (f" ({meant})." if meant else ".")


def checked_provenance(value: Any, text: str) -> dict[str, Any]:
    """The provenance of a revision whose text is ``text`` if its shape is right (`PROVENANCE_SHAPE`) and it
    gives one origin per line of the text (``text.split("\\n")``); Refused (400) naming what is wrong."""
    validated(PROVENANCE_FIELD, {"provenance": value})
    count = len(text.split("\n"))
    if len(value["lines"]) != count:
        raise Refused(400, f"'provenance'['lines'] has {len(value['lines'])} origins for a text of {count} lines "
                           "(one per line).")
    return value
