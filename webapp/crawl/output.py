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


def stats_file(out: Path, rank: int) -> Path:
    return out / LOGS / "stats" / f"{rank}.json"


def task_stats(out: Path) -> dict[int, dict[str, Any]]:
    """rank -> the Goldtext step's counters of that task ({} for a run without the step's stats); ValueError
    naming the file and what is wrong with it when it is not datatrove's stats (a list of steps, each with
    a name and a mapping of counters, in a file named for its task's rank)."""
    found = {}
    for path in sorted((out / LOGS / "stats").glob("*.json")):
        if not path.stem.isdigit():
            raise ValueError(f"{path}: not a task's stats (the file's name is not the task's rank, a number)")
        try:
            steps = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
            raise ValueError(f"{path}: not datatrove's stats ({type(error).__name__}: {error})") from error
        if not isinstance(steps, list) or not all(isinstance(step, dict) for step in steps):
            raise ValueError(f"{path}: not datatrove's stats (expected a list of steps, each an object)")
        for step in steps:
            if STEP_NAME in str(step.get("name", "")):
                stats = step.get("stats", {})
                if not isinstance(stats, dict):
                    raise ValueError(f"{path}: the Goldtext step's stats are not an object of counters")
                found[int(path.stem)] = stats
    return found


def counter(stats: dict[str, Any], name: str) -> float:
    """A datatrove counter's total (it writes a plain number, or {"total": ...} for a measured value);
    ValueError naming the counter when it is neither."""
    value = stats.get(name, 0)
    total = value.get("total", 0) if isinstance(value, dict) else value
    if isinstance(total, bool) or not isinstance(total, int | float | None):
        raise ValueError(f"the counter {name!r} is {total!r}, not a number")
    return float(total or 0)
