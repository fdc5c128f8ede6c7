"""One figure of a benchmark's last line: `{"value": 12.3, "unit": "ms", "target": "<= 50", "met": true}`."""

from __future__ import annotations


def figure(value: float, unit: str, target: str | None = None, met: bool | None = None) -> dict:
    return {"value": round(value, 3), "unit": unit, "target": target, "met": met}
