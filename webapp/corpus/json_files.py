"""Reading a layout's JSON index file (ground truth, evaluation data), with a size cap."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .document import Limits
from .streams import Unreadable, read_file, read_utf8

JSON_ROOM = 1000  # an index holds every page's gold: allow a thousand documents' worth


def load_object(path: Path, limits: Limits) -> dict[str, Any]:
    """A JSON file holding one object; Unreadable otherwise."""
    name = path.name
    try:
        value = json.loads(read_utf8(read_file(path, limits.max_bytes * JSON_ROOM), name))
    except json.JSONDecodeError as err:
        raise Unreadable(f"{name} is not valid JSON ({err.msg}, line {err.lineno})") from err
    if not isinstance(value, dict):
        raise Unreadable(f"{name} is not a JSON object")
    return value
