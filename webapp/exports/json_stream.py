"""A JSON object written one member at a time, so a 100,000-page ground truth never sits in memory."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


class JsonObjectFile:
    """`{"key": value, ...}` in a file, one member per line, ASCII-only (every reader's encoding)."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self._file = path.open("w", encoding="ascii", newline="\n")
        self._file.write("{")
        self._empty = True

    def add(self, key: str, value: Any) -> None:
        self._file.write(("\n" if self._empty else ",\n") + json.dumps(key) + ": " + json.dumps(value))
        self._empty = False

    def close(self) -> None:
        self._file.write("}\n" if self._empty else "\n}\n")
        self._file.close()
