"""The request bodies the use cases take, each declared once as a JSON Schema and checked by `jsonschema`
(whatever face sent it: the API's JSON, the adjudication form read into the same shape). A body that does
not match is refused (400) naming the field and the reason; what the schema cannot say (a page type the
settings name, a text's size in bytes, the snippets' cleaning) is checked after it (usecases/fields.py).

To take a new field in a save, add it to SAVE_FIELDS (required) or SAVE_OPTIONAL (may be left out)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError, best_match

from .outcome import Refused

SAVE_ID_MAX = 64
NAME_MAX = 200  # an extractor's or a site's name in a request

TEXT = {"type": "string"}
WHOLE = {"type": "integer"}
SNIPPETS = {"type": ["object", "null"]}  # their shape: vocabulary.checked_snippets, as the importers check them
FACT = {"type": ["object", "null"]}  # its shape: annotation/effort_record.py, annotation/provenance.py
METADATA = {"type": ["object", "null"]}  # its shape: annotation/article_metadata.py (usecases/fields.py)


def body_schema(required: Mapping[str, Any], optional: Mapping[str, Any]) -> Draft202012Validator:
    """The validator of a JSON object with these fields (name -> schema); other fields are ignored."""
    schema = {"type": "object", "required": list(required), "properties": {**required, **optional}}
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


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
    "provenance": FACT,  # the revision facts (save.REVISION_FACTS); null: none
    "effort": FACT,
    "guideline_version": {"type": ["integer", "null"]},
    "metadata": METADATA,  # title, authors, published; absent or null: keep the current fields
}
SAVE = body_schema(SAVE_FIELDS, SAVE_OPTIONAL)
"""A save of a page's gold or of one's annotation (`POST /api/pages/ID/gold`)."""

ADJUDICATION = body_schema({"version": WHOLE, "type": TEXT, "status": TEXT, "note": TEXT},
                           {"markdown": TEXT, "text": TEXT, "snippets": SNIPPETS, "effort": FACT, "provenance": FACT,
                            "metadata": METADATA})
"""A reviewer's result (the adjudication form)."""

EXTRACTION = body_schema(
    {},
    {"extractors": {"type": "array", "items": {"type": "string", "minLength": 1, "maxLength": NAME_MAX}},
     "site": {"type": ["string", "null"], "maxLength": NAME_MAX},
     "force": {"type": "boolean"}},
)
"""The start of an extraction (`POST /api/extractions`)."""


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
    return f"{where}: {error.message}."
