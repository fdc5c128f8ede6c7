"""Malformed crawl output gives one clear error naming the file and the reason, never a traceback or a bare
"Aborted!": a stats file of the wrong shape, a counter that is no number, a truncated `.jsonl.gz`, for
`goldtext crawl-report` and `goldtext import --datatrove`. CRAWL_REPORT.md quotes what it takes from the
documents: an extractor name with a newline and `# …`, a page type `[click](javascript:…)` stay text."""

from __future__ import annotations

import base64
import gzip
import json
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

pytestmark = pytest.mark.security

STEP = "⛏ Goldtext"


def document(number: int, **metadata) -> dict:
    html = f"<html><body><p>Page {number} of the crawl.</p></body></html>".encode()
    return {"text": f"Page {number}", "id": f"<urn:goldtext:page:{number}>",
            "metadata": {"extractor": "trafilatura", "page_type": "article", "routed": "article", "accepted": True,
                         "url": f"https://crawl.example/{number}", "html_base64": base64.b64encode(html).decode(),
                         **metadata}}


def output(folder: Path, documents: list[dict], stats: object = None) -> Path:
    """A crawl's output folder as the pipeline leaves it: data/00000.jsonl.gz and logs/stats/0.json."""
    (folder / "data").mkdir(parents=True)
    with gzip.open(folder / "data" / "00000.jsonl.gz", "wt", encoding="utf-8") as stream:
        for item in documents:
            stream.write(json.dumps(item) + "\n")
    (folder / "logs" / "stats").mkdir(parents=True)
    found = stats if stats is not None else [{"name": STEP, "stats": {"total": len(documents), "forwarded": 1,
                                                                      "seconds": {"total": 2.0}}}]
    (folder / "logs" / "stats" / "0.json").write_text(json.dumps(found), encoding="utf-8")
    return folder


def one_error(result, *parts: str) -> None:
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output and "Aborted" not in result.output, result.output
    (line,) = [line for line in result.output.splitlines() if line.startswith("Error: ")]
    for part in parts:
        assert part in line, (part, result.output)


@pytest.mark.parametrize(("stats", "says"), [
    ({"name": STEP}, "not datatrove's stats (expected a list of steps, each an object)"),
    ("[{", "not datatrove's stats (JSONDecodeError"),
    ([{"name": STEP, "stats": ["total", 3]}], "the Goldtext step's stats are not an object of counters"),
    ([{"name": STEP, "stats": {"total": "three"}}], "the counter 'total' is 'three', not a number"),
])
def test_a_stats_file_of_the_wrong_shape_is_one_error_naming_it(runner, tmp_path, stats, says):
    out = output(tmp_path / "out", [document(1)], stats)
    if isinstance(stats, str):
        (out / "logs" / "stats" / "0.json").write_text(stats)
    one_error(runner.invoke(args=["crawl-report", str(out)]), str(out / "logs" / "stats" / "0.json"), says)


@pytest.mark.parametrize("command", ["crawl-report", "import"])
def test_a_truncated_jsonl_gz_is_one_error_naming_it(runner, tmp_path, command):
    out = output(tmp_path / "out", [document(n) for n in range(1, 400)])
    data = out / "data" / "00000.jsonl.gz"
    data.write_bytes(data.read_bytes()[: data.stat().st_size // 2])
    args = ["crawl-report", str(out)] if command == "crawl-report" else ["import", "--datatrove", str(out),
                                                                          "--sample", "5"]
    one_error(runner.invoke(args=args), str(data), "the file is truncated after line ")


def test_the_report_quotes_what_it_takes_from_the_documents(runner, tmp_path):
    hostile = {"extractor": "trafilatura\n# Owned", "page_type": "[click](javascript:alert(1))",
               "challenger": "<img src=x onerror=alert(1)>", "agreement": 0.5,
               "error": "bad | cell\n## heading"}
    out = output(tmp_path / "out", [document(1, **hostile), document(2, **hostile)])
    result = runner.invoke(args=["crawl-report", str(out)])
    assert result.exit_code == 0, result.output
    card = (out / "CRAWL_REPORT.md").read_text(encoding="utf-8")
    rendered = MarkdownIt("commonmark").enable("table").render(card)
    assert rendered.count("<h1>") == 1 and "Owned</h1>" not in rendered and "<h2>heading" not in rendered
    assert "<a " not in rendered and "<img" not in rendered
    assert "[click](javascript:alert(1))" in rendered  # the page type, shown as the text it is
    assert "trafilatura\\n# Owned" in rendered and "bad | cell" in rendered
