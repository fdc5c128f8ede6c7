"""The exported pipeline: pipeline.py, written from the package's template, and pipeline.json, its configuration."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from importlib.resources import files
from pathlib import Path
from string import Template
from typing import Any

from sqlalchemy.orm import Session

from ..exports.export_service import prepare_folder
from ..extractors.base import Extractor
from ..extractors.extraction_service import RunSettings
from ..results.cache import ScoreCache
from ..scoring import Metric
from .choice import PipelineRequest, pipeline_config
from .plan import EXECUTORS

SCRIPT = "pipeline.py"
CONFIG = "pipeline.json"
TEMPLATE = "pipeline.py.tmpl"


def summary(config: dict[str, Any]) -> str:
    """One line saying what the pipeline runs."""
    if config["mode"] == "type":
        chosen = ", ".join(f"{page_type}: {route['extractor']}" for page_type, route in config["routes"].items())
        head = f"each page type's extractor ({chosen})"
    elif config.get("composition"):
        head = f"composition {config['extractor']} ({', '.join(config['composition']['options']['parts'])})"
    else:
        head = f"extractor {config['extractor']}"
    challenger = f", challenger {config['challenger']}" if config.get("challenger") else ""
    return f"{head}{challenger}"


def in_docstring(value: Any) -> str:
    """Text that reads as itself inside the script's triple-quoted docstring and cannot end it: backslashes
    and double quotes escaped, every character that is not printable (a newline, a NUL) as its escape."""
    return "".join(
        "\\\\" if char == "\\" else '\\"' if char == '"' else char if char.isprintable()
        else char.encode("unicode_escape").decode("ascii")
        for char in str(value))


def render_script(config: dict[str, Any]) -> str:
    """pipeline.py: what it embeds (names, options, the command with its paths) is quoted, in its docstring
    by `in_docstring`, in code as a Python literal (repr)."""
    template = Template(files("webapp.crawl").joinpath("templates", TEMPLATE).read_text(encoding="utf-8"))
    line = summary(config)
    command = config.get("command") or "goldtext export --format datatrove"
    return template.substitute(summary=in_docstring(line), command=in_docstring(command),
                               created=in_docstring(config["created"]),
                               executor=in_docstring(config.get("executor", EXECUTORS[0])),
                               description=repr(f"Goldtext crawl pipeline: {line}"))


def write_pipeline(out: Path, config: dict[str, Any]) -> list[Path]:
    """Write pipeline.py and pipeline.json into out (new, or an empty folder; ValueError otherwise)."""
    prepare_folder(out)
    script = out / SCRIPT
    script.write_text(render_script(config), encoding="utf-8")
    script.chmod(0o755)
    (out / CONFIG).write_text(json.dumps(config, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return [script, out / CONFIG]


def export_pipeline(
    session: Session, registry: Mapping[str, Extractor], metrics: Mapping[str, Metric], request: PipelineRequest,
    settings: RunSettings,
    page_types: Sequence[str], out: Path, command: str = "",
) -> dict[str, Any]:
    """Choose from the leaderboard (the metric's scores must be current: refresh them first) and write the
    pipeline into out; returns its configuration. NoChoice or ValueError say why nothing was written."""
    request.check()
    cache = ScoreCache(metrics)
    cache.sync(session)
    config = pipeline_config(session, registry, cache, request, settings, page_types,
                             command or request.command(str(out)))
    write_pipeline(out, config)
    return config
