"""A `jsonl` export imported into another instance and exported again gives back how its gold was made: the
effort of every revision and the lead time, the guideline version of the gold and of each annotation, and
the annotators in the order the first export listed them (issue 31: the round trip dropped them)."""

from __future__ import annotations

import json

from sqlalchemy import select
from workbench import make_page

from webapp import create_app
from webapp.annotation.annotations import save_annotation
from webapp.annotation.review import adjudicate
from webapp.models import AnnotationRevision, GoldRevision
from webapp.web.db import dispose, sessions

KEPT = ("annotators", "effort", "lead_time", "guideline_version", "gold", "gold_author", "type", "status")


def effort(seconds: float, **actions: int) -> dict:
    return {"active_seconds": seconds, "actions": actions}


def exported(runner, out) -> dict:
    result = runner.invoke(args=["export", "--format", "jsonl", "--out", str(out)])
    assert result.exit_code == 0, result.output
    (line,) = (out / "pages.jsonl").read_text().splitlines()
    return json.loads(line)


def test_a_round_trip_keeps_effort_lead_time_guideline_versions_and_the_annotators_order(runner, session, tmp_path):
    page = make_page(session, "<html><body><p>The ferry leaves at nine.</p><p>Tickets on board.</p></body></html>")
    save_annotation(session, page, "Zoe", base_version=0, text="The ferry leaves at nine.", page_type="service",
                    status="draft", effort=effort(12.5, block=1), guideline_version=2)
    save_annotation(session, page, "Zoe", base_version=1, text="The ferry leaves at nine.\nTickets on board.",
                    page_type="service", status="done", effort=effort(30.0, block=1, typed_words=3),
                    guideline_version=3)
    save_annotation(session, page, "Ann", base_version=0, text="The ferry leaves at nine.", page_type="service",
                    status="done", effort=effort(20.0, take=2), guideline_version=3)
    adjudicate(session, page, "Rita", base_version=0, text="The ferry leaves at nine.\nTickets on board.",
               page_type="service", status="done", note="Zoe's is whole", effort=effort(41.25, use_candidate=1),
               guideline_version=3)
    session.commit()
    first = exported(runner, tmp_path / "first")
    assert first["annotators"] == ["Rita", "Zoe"] and first["lead_time"] == 41.2
    assert [a["lead_time"] for a in first["annotations"]] == [42.5, 20.0]  # Zoe's two saves, Ann's one

    (tmp_path / "other").mkdir()
    other = create_app({"TESTING": True, "INSTANCE_PATH": str(tmp_path / "other"), "SECRET_KEY": "other",
                        "DATABASE_URL": f"sqlite:///{tmp_path / 'other' / 'other.sqlite'}", "OVERLAP": 2})
    try:
        result = other.test_cli_runner().invoke(args=["import", str(tmp_path / "first"), "--format", "jsonl"])
        assert result.exit_code == 0 and "1 imported" in result.output, result.output
        again = exported(other.test_cli_runner(), tmp_path / "again")
        with sessions(other)() as there:
            # the import made one revision each, by its author, with the guideline version the export named;
            # the history of efforts is kept beside them, not invented as revisions
            assert there.scalars(select(GoldRevision.guideline_version)).all() == [3]
            assert sorted(there.scalars(select(AnnotationRevision.guideline_version))) == [3, 3]
            assert there.scalars(select(GoldRevision.effort)).all() == [None]
    finally:
        dispose(other)
    assert {key: again[key] for key in KEPT} == {key: first[key] for key in KEPT}
    assert again["annotations"] == first["annotations"]


def test_an_export_whose_effort_a_save_would_refuse_is_rejected_naming_it(runner, tmp_path):
    line = {"url": "https://ferry.example/a", "html": "<p>x</p>", "gold": "x", "gold_author": "Rita",
            "effort": [{"version": 1, "author": "Rita", "active_seconds": -4, "actions": {}}]}
    (tmp_path / "pages.jsonl").write_text(json.dumps(line) + "\n")
    result = runner.invoke(args=["import", str(tmp_path / "pages.jsonl"), "--format", "jsonl"])
    refused = "the gold's effort of version 1: 'effort'['active_seconds']: -4 is less than the minimum of 0"
    assert refused in result.output
    line["effort"] = "lots"
    (tmp_path / "pages.jsonl").write_text(json.dumps(line) + "\n")
    result = runner.invoke(args=["import", str(tmp_path / "pages.jsonl"), "--format", "jsonl"])
    assert "effort is not a list of {version, author, active_seconds, actions}" in result.output
