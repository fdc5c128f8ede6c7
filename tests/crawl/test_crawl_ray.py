"""The crawl on Ray: `goldtext export --format datatrove --executor ray` writes a pipeline whose script runs on
datatrove's Ray executor by default, joins the cluster RAY_ADDRESS names, and on a real cluster (a head and a
worker started by `ray start`) writes for every page of the shared corpora the text `goldtext extract` stores."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from io import BytesIO

import pytest
from corpora import READABILITY, READABILITY_PAGES, WCXB, WCXB_SAMPLE
from ray_cluster import ray_cluster
from test_crawl import ROOT, TESTS, documents, page_of, run_pipeline, stored_pages, stored_texts, write_warcs
from workbench import sign_in

from webapp.extractors.registry import build_registry

pytest.importorskip("datatrove")


@pytest.mark.slow
@pytest.mark.corpus(READABILITY, WCXB)
def test_the_pipeline_runs_on_a_ray_cluster_and_writes_what_goldtext_extract_stores(
    cli, session, tmp_path, monkeypatch
):
    cli("import", str(READABILITY_PAGES), str(WCXB_SAMPLE))
    pages = stored_pages(session)
    cli("extract", "--extractor", "trafilatura")
    output = cli("export", "--format", "datatrove", "--extractor", "trafilatura", "--challenger", "none",
                 "--executor", "ray", "--out", str(tmp_path / "pipeline"))
    assert "executor: ray (the cluster RAY_ADDRESS names)" in output
    write_warcs(tmp_path / "warc", pages, files=2)
    env = os.environ | {"PYTHONPATH": os.pathsep.join([str(ROOT), str(TESTS), os.environ.get("PYTHONPATH", "")])}

    with ray_cluster(tmp_path / "ray", workers=1, cpus=1, env=env) as address:
        monkeypatch.setenv("RAY_ADDRESS", address)
        # no --executor: the script runs on the executor it was exported with
        done = run_pipeline(tmp_path / "pipeline", "--warc", str(tmp_path / "warc"), "--out", str(tmp_path / "out"),
                            "--tasks", "2")

        # a task that fails (an unreadable WARC file) makes the command fail, naming it; the same command, once
        # the file is readable, runs only that task
        broken = tmp_path / "broken"
        broken.mkdir()
        shutil.copy(tmp_path / "warc" / "crawl-0.warc.gz", broken)
        (broken / "crawl-1.warc.gz").write_bytes(b"not a WARC file")
        args = ["--warc", str(broken), "--out", str(tmp_path / "again"), "--tasks", "2"]
        failed = run_pipeline(tmp_path / "pipeline", *args, check=False)
        assert failed.returncode == 1, failed.stderr[-3000:]
        assert "failed: 1 of 2 tasks did not complete (1)" in failed.stderr
        assert [p.name for p in (tmp_path / "again" / "logs" / "completions").iterdir()] == ["00000"]
        shutil.copy(tmp_path / "warc" / "crawl-1.warc.gz", broken)
        resumed = run_pipeline(tmp_path / "pipeline", *args)
        assert "Will run pipeline on 1 incomplete ranks out of 2 total" in resumed.stderr
        assert documents(tmp_path / "again").keys() == documents(tmp_path / "out").keys()

    port = address.rsplit(":", 1)[1]
    assert f":{port}: 2 nodes, 2 CPUs" in done.stderr  # the head and the worker joined
    executor = json.loads((tmp_path / "out" / "logs" / "executor.json").read_text())
    # datatrove's Ray executor, each task asking for a CPU per extractor process and its memory cap (2 GB)
    assert (executor["cpus_per_task"], executor["mem_per_cpu_gb"], executor["tasks"]) == (1, 2.0, 2)
    assert sorted((tmp_path / "out" / "logs" / "completions").iterdir()) == [
        tmp_path / "out" / "logs" / "completions" / rank for rank in ("00000", "00001")]
    docs = documents(tmp_path / "out")
    assert sorted(page_of(doc_id) for doc_id in docs) == [page_id for page_id, _, _ in pages]
    fingerprint = build_registry()["trafilatura"].fingerprint
    stored = stored_texts(session, fingerprint)
    urls = {page_id: url for page_id, url, _ in pages}
    for doc_id, doc in docs.items():
        page_id, meta = page_of(doc_id), doc["metadata"]
        assert doc["text"] == stored[page_id], f"page {page_id}: the Ray run's text is not the stored extraction"
        assert (meta["url"], meta["extractor"], meta["fingerprint"]) == (urls[page_id], "trafilatura", fingerprint)
    report = cli("crawl-report", str(tmp_path / "out"))
    assert f"| trafilatura | {len(pages)} |" in report


@pytest.mark.slow
@pytest.mark.corpus(READABILITY)
def test_the_executor_exported_is_the_scripts_default_and_its_command_line_overrides_it(
    cli, runner, tmp_path
):
    folders = sorted(p for p in READABILITY_PAGES.iterdir() if (p / "source.html").is_file())[:2]
    pages = [(n, f"https://pages.example/{n}", (f / "source.html").read_bytes()) for n, f in enumerate(folders)]
    write_warcs(tmp_path / "warc", pages, 1)
    cli("export", "--format", "datatrove", "--extractor", "trafilatura", "--executor", "ray",
        "--out", str(tmp_path / "pipeline"))
    config = json.loads((tmp_path / "pipeline" / "pipeline.json").read_text())
    assert config["executor"] == "ray"
    assert config["command"].endswith("--executor ray")
    script = (tmp_path / "pipeline" / "pipeline.py").read_text()
    assert "runs its tasks on the ray executor unless --executor names another" in script
    env = os.environ | {"PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    shown = subprocess.run([sys.executable, str(tmp_path / "pipeline" / "pipeline.py"), "--help"], env=env,
                           capture_output=True, text=True, check=True).stdout
    assert "(default: ray, as exported;" in " ".join(shown.split())
    run_pipeline(tmp_path / "pipeline", "--warc", str(tmp_path / "warc"), "--out", str(tmp_path / "out"),
                 "--executor", "local")
    executor = json.loads((tmp_path / "out" / "logs" / "executor.json").read_text())
    assert "start_method" in executor and "cpus_per_task" not in executor  # datatrove's local executor's fields
    assert len(documents(tmp_path / "out")) == 2

    cli("export", "--format", "datatrove", "--extractor", "trafilatura", "--out", str(tmp_path / "local"))
    assert json.loads((tmp_path / "local" / "pipeline.json").read_text())["executor"] == "local"
    refused = runner.invoke(args=["export", "--format", "jsonl", "--executor", "ray", "--out", str(tmp_path / "j")])
    assert refused.exit_code == 2 and "--executor apply to --format datatrove only" in refused.output


def test_the_extractors_page_exports_a_pipeline_for_ray(client, session, run_jobs):
    token = sign_in(client)
    assert '<select name="executor">' in client.get("/extractors").get_data(as_text=True)
    form = {"extractor": "trafilatura", "challenger": "none", "executor": "ray", "csrf_token": token}
    refused = client.post("/extractors/pipeline", data={**form, "executor": "<b>k8s</b>"})
    assert refused.status_code == 400
    assert "--executor takes one of local, slurm, ray, not &#39;&lt;b&gt;k8s&lt;/b&gt;&#39;" in refused.get_data(
        as_text=True)
    session.rollback()

    response = client.post("/extractors/pipeline", data=form)
    assert response.status_code == 302
    job_id = int(response.location.rsplit("/", 1)[-1])
    assert run_jobs() == [job_id]
    with zipfile.ZipFile(BytesIO(client.get(f"/jobs/{job_id}/download").get_data())) as zipped:
        config = json.loads(zipped.read(f"goldtext-datatrove-{job_id}/pipeline.json"))
        script = zipped.read(f"goldtext-datatrove-{job_id}/pipeline.py").decode()
    assert config["executor"] == "ray"
    assert "runs its tasks on the ray executor" in script
