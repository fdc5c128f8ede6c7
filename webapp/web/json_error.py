"""The one shape of every JSON error the app answers: ``{"error": the status's name, "message": what went
wrong, naming the item and the reason}``, with the fields a caller may act on beside them (a body's
``limit``, an unknown job's ``finished``)."""

from __future__ import annotations

from typing import Any

from flask import jsonify
from werkzeug.http import HTTP_STATUS_CODES
from werkzeug.wrappers import Response


def json_error(status: int, message: str, **extra: Any) -> Response:
    """The JSON error response of this status."""
    response = jsonify(error=HTTP_STATUS_CODES.get(status, "Error"), message=message, **extra)
    response.status_code = status
    return response
