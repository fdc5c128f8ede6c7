"""Bad input answered before any view runs, naming what is wrong, never with a 500 (issue 23).

- Ids: every `<int:...>` of the URL map is an id of the models' `Integer` columns, 32-bit on PostgreSQL.
  A larger number answers 404 saying so, on every backend alike: no row has such an id (SQLite would
  take numbers up to 2^63, but the schema declares the smaller range).
- NUL characters: PostgreSQL refuses them in text and no field of Goldtext needs one. A NUL in the path,
  a query argument, a form field, an uploaded file's name or any string (or key) of a JSON body answers
  400 naming the field.
- JSON: a body (or a JSON form field) nested deeper than JSON_MAX_DEPTH levels answers 400; Python's
  parser would give up with a RecursionError, and nothing Goldtext reads is nested more than 3 levels.
- Whole numbers: a query argument or form field read as one (an offset, a version) beyond the `Integer`
  range answers 400 naming it (SQLite cannot bind a number beyond 2^63, PostgreSQL compares it to a
  32-bit column): the bound of every whole-number field a view reads (web/request_input.py `whole`).
- Sizes: each route takes a body of at most `body_limit(endpoint)`: uploads up to MAX_CONTENT_LENGTH,
  the login and account forms up to access.ACCOUNT_MAX_BODY, every other route up to REQUEST_MAX_BYTES;
  a larger body answers 413 naming the limit (error_pages.too_large).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from flask import Flask, abort, current_app, request
from flask import Request as FlaskRequest
from flask.json.provider import DefaultJSONProvider
from werkzeug.exceptions import BadRequest, NotFound
from werkzeug.routing import IntegerConverter

from ..foundation.settings import settings_of
from .access import ACCOUNT_MAX_BODY

ID_MAX = 2**31 - 1
"""The largest id the models' `Integer` id columns hold on PostgreSQL."""
INT_MIN = -(2**31)

JSON_MAX_DEPTH = 32
NUL = "\x00"

UPLOAD_ENDPOINTS = frozenset({"upload.receive"})


class IdConverter(IntegerConverter):
    """`<int:...>`: a whole number an id column holds; a larger one is a 404 saying so."""

    def to_python(self, value: str) -> Any:
        digits = value.lstrip("0") or "0"
        if len(digits) > len(str(ID_MAX)) or int(digits) > ID_MAX:
            raise NotFound(f"Nothing has the id {clipped(value)}: ids are whole numbers up to {ID_MAX}.")
        return super().to_python(digits)


def clipped(value: str, most: int = 80) -> str:
    """A value quoted in a message, cut to `most` characters, its NULs shown as \\x00."""
    shown = value if len(value) <= most else value[:most] + f"… ({len(value):,} characters)"
    return shown.replace(NUL, "\\x00")


def too_deep(value: Any, most: int = JSON_MAX_DEPTH) -> bool:
    """Whether parsed JSON nests lists and objects more than `most` levels deep."""
    level: list[tuple[Any, int]] = [(value, 1)]
    while level:
        item, depth = level.pop()
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else None
        if children is None:
            continue
        if depth > most:
            return True
        level.extend((child, depth + 1) for child in children)
    return False


class BoundedJSON(DefaultJSONProvider):
    """The app's JSON: reading refuses (ValueError) a document nested deeper than JSON_MAX_DEPTH."""

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        deep = f"it is nested deeper than {JSON_MAX_DEPTH} levels"
        try:
            value = super().loads(s, **kwargs)
        except RecursionError:
            raise ValueError(deep) from None
        if too_deep(value):
            raise ValueError(deep)
        return value


class Request(FlaskRequest):
    """Flask's request with the route's body limit and a JSON body's parse error kept in the 400."""

    @property
    def max_content_length(self) -> int | None:
        if self._max_content_length is not None:
            return self._max_content_length
        return body_limit(self.endpoint)[0] if current_app else None

    @max_content_length.setter
    def max_content_length(self, value: int | None) -> None:
        self._max_content_length = value

    def on_json_loading_failed(self, e: ValueError | None) -> Any:
        if e is None:
            return super().on_json_loading_failed(e)
        raise BadRequest(f"The request's body is not JSON Goldtext can read: {e}.")


def body_limit(endpoint: str | None) -> tuple[int | None, str]:
    """The largest body a route takes, and what sets it (for the 413's message)."""
    serving = settings_of(current_app).serving
    limits = [(serving.max_content_length, "the MAX_CONTENT_LENGTH setting")]
    if endpoint not in UPLOAD_ENDPOINTS:
        limits.append((serving.request_max_bytes, "the REQUEST_MAX_BYTES setting, for every request but uploads"))
    if endpoint is not None and endpoint.startswith("accounts."):
        limits.append((ACCOUNT_MAX_BODY, "the limit of this route"))
    set_limits = [(limit, source) for limit, source in limits if limit]
    return min(set_limits, key=lambda pair: pair[0]) if set_limits else (None, "")


def json_strings(value: Any, path: str = "") -> Iterator[tuple[str, str]]:
    """(where, string) for every key and string of parsed JSON; where is a path like `snippets.with[0]`."""
    if isinstance(value, str):
        yield path or "the body", value
    elif isinstance(value, dict):
        for key, item in value.items():
            where = f"{path}.{key}" if path else str(key)
            yield where, str(key)
            yield from json_strings(item, where)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from json_strings(item, f"{path}[{index}]")


def request_fields() -> Iterator[tuple[str, str]]:
    """(the field as a message names it, its text) for every piece of text the request carries."""
    for name, value in (request.view_args or {}).items():
        if isinstance(value, str):
            yield f"the address's {name!r}", value
    for source, fields in (("query argument", request.args), ("form field", request.form)):
        for name, value in fields.items(multi=True):
            yield f"the {source} {clipped(name)!r}", name + value
    for name, upload in request.files.items(multi=True):
        yield f"the name of the file sent as {clipped(name)!r}", name + (upload.filename or "")
    if request.is_json and request.get_data(cache=True):
        for where, value in json_strings(request.get_json()):
            yield f"the JSON field {clipped(where)!r}", value


def refuse_nul() -> None:
    """The before-request check: 400 naming the first field with a NUL character."""
    for field, value in request_fields():
        if NUL in value:
            abort(400, description=f"{field[0].upper()}{field[1:]} cannot hold a NUL character (\\x00): "
                                   "Goldtext takes none in any text; remove it and send again.")


def init_bad_input(app: Flask) -> None:
    """Before the blueprints (their `<int:...>` rules take the bounded converter) and after the access and
    CSRF checks (a body is read only for someone who may send it)."""
    app.url_map.converters["int"] = IdConverter
    app.request_class = Request
    app.json = BoundedJSON(app)
    app.before_request(refuse_nul)
