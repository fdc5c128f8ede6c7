"""The old name of the page type, kept for one release (it goes in the next one): a query argument
`kind` (`?kind=article`, also as a grouping: `?by=kind`) and a JSON body's field `"kind"` are read as
`type`. A response to a request that used one says so in a `Deprecation` header and a `Warning` naming
the new name."""

from __future__ import annotations

from flask import Flask, Response, g, request
from werkzeug.datastructures import ImmutableMultiDict

OLD, NEW = "kind", "type"
NOTE = '299 goldtext "{0} is deprecated and goes in the next release: use {1}"'


def read_old_names() -> None:
    used = []
    if OLD in request.args or request.args.get("by") == OLD:
        request.args = ImmutableMultiDict(
            [(NEW if key == OLD else key, NEW if key == "by" and value == OLD else value)
             for key, value in request.args.items(multi=True)])
        used.append(("the query argument 'kind'", "'type'"))
    body = request.get_json(silent=True) if request.is_json else None
    if isinstance(body, dict) and OLD in body:
        value = body.pop(OLD)
        body.setdefault(NEW, value)
        used.append(("the field 'kind'", "'type'"))
    g.old_names = used


def say_deprecated(response: Response) -> Response:
    for old, new in g.get("old_names", ()):
        response.headers["Deprecation"] = "true"
        response.headers.add("Warning", NOTE.format(old, new))
    return response


def init_old_names(app: Flask) -> None:
    app.before_request(read_old_names)
    app.after_request(say_deprecated)
