"""What a run of an exported pipeline leaves in its output folder, and how it is read back.

OUT/data/RANK.jsonl.gz   the documents, one JSON object a line: text, id, metadata (datatrove's JsonlWriter)
OUT/logs/                datatrove's logging folder: completions/RANK (a finished task), stats/RANK.json
                         (a task's counters), logs/, executor.json
OUT/CRAWL_REPORT.md      the card `goldtext crawl-report` writes
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

LOGS = "logs"
CARD = "CRAWL_REPORT.md"
STEP_NAME = "⛏ Goldtext"
"""The Goldtext step's name in datatrove's stats (webapp/crawl/step.py)."""


def document_record(writer: Any, document: Any) -> dict[str, Any]:
    """The writer's adapter: every document as text, id and metadata, the text written even when empty (datatrove's
    default adapter leaves out empty fields, and a page whose call failed has an empty text)."""
    return {"text": document.text, "id": document.id, "metadata": document.metadata}


def task_stats(out: Path) -> dict[int, dict[str, Any]]:
    """rank -> the Goldtext step's counters of that task ({} for a run without the step's stats)."""
    found = {}
    for path in sorted((out / LOGS / "stats").glob("*.json")):
        steps = json.loads(path.read_text())
        for step in steps:
            if STEP_NAME in step.get("name", ""):
                found[int(path.stem)] = step.get("stats", {})
    return found


def counter(stats: dict[str, Any], name: str) -> float:
    """A datatrove counter's total (it writes a plain number, or {"total": ...} for a measured value)."""
    value = stats.get(name, 0)
    return float(value.get("total", 0)) if isinstance(value, dict) else float(value or 0)
