"""The page type of a record of goldtext's own layouts (jsonl, folder, the sidecars): `type`, or
`kind`, the field's name before, still read for one release."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def page_type_field(record: Mapping[str, Any]) -> Any:
    return record.get("type", record.get("kind"))
