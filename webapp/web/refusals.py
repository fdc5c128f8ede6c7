"""A use case's refusal answered by a view: its status and reason (the API's error handler makes it JSON),
and 413 for a text over GOLD_MAX_BYTES."""

from __future__ import annotations

from typing import NoReturn

from flask import abort
from werkzeug.exceptions import HTTPException

from ..usecases.outcome import Refused


class TextTooLarge(HTTPException):
    """A gold or annotation text over GOLD_MAX_BYTES: 413 with the use case's reason (not the request-size
    answer of MAX_CONTENT_LENGTH, web/security.py)."""

    code = 413


def refuse(error: Refused) -> NoReturn:
    """Answer a use case's refusal: its status and reason (the API's error handler makes it JSON)."""
    if error.status == 413:
        raise TextTooLarge(description=error.reason)
    abort(error.status, description=error.reason)
