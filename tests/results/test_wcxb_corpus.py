"""WCXB's own evaluate.py on Goldtext's export of the shared sample (280 pages of WCXB's dev split, 40 per page
type), run in a subprocess from the export's folder: its figures, overall and per type, are those of
`goldtext score --metric wcxb --by type`."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest
from corpora import WCXB, WCXB_SAMPLE

pytestmark = [pytest.mark.slow, pytest.mark.corpus(WCXB)]

EXTRACTORS = ("whole-page", "trafilatura-fast")
TYPES = ("article", "forum", "product", "collection", "listing", "documentation", "service")  # evaluate.py's order
EXACT = """
import contextlib, io, json, sys
import evaluate
truth = evaluate.load_ground_truth("dev")
with contextlib.redirect_stdout(io.StringIO()):
    rows = evaluate.evaluate_results(truth, json.load(open(sys.argv[1])))
print(json.dumps(rows))
"""


def run(args: list[str], cwd) -> str:
    done = subprocess.run([sys.executable, *args], cwd=cwd, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_evaluate_py_on_the_export_gives_goldtext_scores_figures(runner, session, tmp_path):
    def cli(*args: str) -> str:
        session.rollback()
        result = runner.invoke(args=list(args))
        assert result.exit_code == 0, result.output + repr(result.exception)
        return result.output

    assert "280 imported, 0 duplicate, 0 rejected" in cli("import", str(WCXB_SAMPLE))
    cli("extract", *(word for name in EXTRACTORS for word in ("--extractor", name)))
    out = tmp_path / "export"
    cli("export", "--format", "wcxb", "--out", str(out), "--predictions", "--status", "done")
    shutil.copy(WCXB_SAMPLE / "evaluate.py", out)  # the benchmark's script, beside the export's dev/ as it expects
    assert sorted(p.name for p in (out / "results").iterdir()) == sorted(f"{name}.json" for name in EXTRACTORS)
    for name in EXTRACTORS:
        board = json.loads(cli("score", "--metric", "wcxb", "--by", "type", "--format", "json", "--bootstrap", "0",
                               "--extractor", name))
        ours = board["extractors"][name]
        printed = run(["evaluate.py", "--split", "dev", "--results", f"results/{name}.json", "--per-type"], out)
        assert "Loaded 280 ground truth files (dev split)" in printed and "Overall (280 pages):" in printed
        for label, value in (("Precision:  ", f"{ours['precision']:.4f}"), ("Recall:     ", f"{ours['recall']:.4f}"),
                             ("F1:         ", f"{ours['f1']:.4f}"), ("With snippets:    ", f"{ours['with_rate']:.1%}"),
                             ("Without snippets: ", f"{ours['without_rate']:.1%}")):
            assert f"  {label}{value}" in printed, (name, label, printed)
        for page_type in TYPES:
            group = board["groups"][page_type]
            figures = group["extractors"][name]
            line = f"  {page_type:<16} {group['pages']:>5} {figures['f1']:>7.3f} {figures['precision']:>7.3f} " \
                   f"{figures['recall']:>7.3f}"
            assert line in printed.splitlines(), (name, line, printed)
        assert set(board["groups"]) == set(TYPES) and board["pages"] == 280

        rows = json.loads(run(["-c", EXACT, f"results/{name}.json"], out))
        for figure in ("precision", "recall", "f1", "with_rate", "without_rate"):
            assert ours[figure] == pytest.approx(sum(r[figure] for r in rows) / len(rows), abs=1e-12), figure
        for page_type in TYPES:
            theirs = [r["f1"] for r in rows if r["page_type"] == page_type]
            assert board["groups"][page_type]["extractors"][name]["f1"] == pytest.approx(sum(theirs) / len(theirs),
                                                                                     abs=1e-12), page_type
