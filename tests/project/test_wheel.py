"""What a user installs works: the wheel built from the checkout, installed in a fresh virtual environment
outside the checkout, runs `goldtext demo` and serves every page with its styles and scripts."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# One worker of pytest-xdist builds the wheel: pip builds in the checkout, so two builds would collide.
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("wheel")]

# Run by the fresh environment's Python: every page the navigation offers, then every stylesheet and script
# those pages link, each answered by the installed app.
PAGES_AND_ASSETS = r"""
import json, re, sys
import webapp
from webapp import create_app

app = create_app()
client = app.test_client()
with client.session_transaction() as cookie:
    cookie["annotator"] = "wheel"  # the name local mode asks once
answers = {"package": webapp.__file__, "status": {}}
assets = set()
for path in ["/", "/leaderboard", "/pages/1", "/sites", "/extractors", "/exports", "/upload", "/jobs", "/capture"]:
    response = client.get(path)
    answers["status"][path] = response.status_code
    assets.update(re.findall(r'(?:href|src)="(/static/[^"?#]+)', response.get_data(as_text=True)))
for path in sorted(assets):
    response = client.get(path)
    answers["status"][path] = response.status_code
    response.close()
print(json.dumps(answers))
"""


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out),
                    str(ROOT)], check=True, cwd=out, capture_output=True)
    return next(out.glob("goldtext-*.whl"))


def test_the_wheel_carries_the_templates_and_the_static_files(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    for folder in ("templates", "static"):
        expected = {f"webapp/{folder}/{p.relative_to(ROOT / folder).as_posix()}"
                    for p in (ROOT / folder).rglob("*") if p.is_file()}
        assert expected and expected <= names, sorted(expected - names)[:5]


def test_the_installed_wheel_runs_the_demo_and_serves_every_page(wheel, tmp_path):
    """A fresh environment outside the checkout: its own site-packages holds the wheel, and the test
    environment's site-packages lends it the dependencies (a .pth line, which loads no editable finder)."""
    env_dir = tmp_path / "env"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(env_dir)], check=True)
    python = env_dir / "bin" / "python"
    site = Path(subprocess.check_output([str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                                        text=True).strip())
    lenders = [p for p in sys.path if p.endswith("site-packages")]
    (site / "dependencies.pth").write_text("\n".join(lenders) + "\n")
    subprocess.run([str(python), "-m", "pip", "install", "--no-deps", "-q", str(wheel)],
                   check=True, capture_output=True)

    away = tmp_path / "elsewhere"
    away.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith("GOLDTEXT_") and k != "PYTHONPATH"}
    env["GOLDTEXT_INSTANCE_PATH"] = str(tmp_path / "instance")
    demo = subprocess.run([str(env_dir / "bin" / "goldtext"), "demo", "--no-serve"], cwd=away, env=env,
                          capture_output=True, text=True, timeout=900)
    assert demo.returncode == 0, demo.stdout + demo.stderr
    served = subprocess.run([str(python), "-c", PAGES_AND_ASSETS], cwd=away, env=env, capture_output=True, text=True,
                            timeout=300)
    assert served.returncode == 0, served.stderr
    answers = json.loads(served.stdout.splitlines()[-1])

    assert answers["package"].startswith(str(site)), answers["package"]
    assert any(path.endswith(".css") for path in answers["status"]) and any(
        path.endswith(".js") for path in answers["status"])
    assert {path: code for path, code in answers["status"].items() if code != 200} == {}


def test_the_readme_install_is_quiet_and_its_demo_serves_every_page(tmp_path):
    """The README's quickstart in a fresh environment with only Goldtext's own dependencies (no extra):
    `pip install -e .` after upgrading pip says nothing (the build backend's notes on how it makes the install
    editable included), the demo it starts serves every page, and what needs an extra says so."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = str(venv / "bin" / "python")
    subprocess.run([python, "-m", "pip", "install", "-q", "--upgrade", "pip"], check=True, capture_output=True)
    installed = subprocess.run([python, "-m", "pip", "install", "-q", "-e", str(ROOT)], cwd=tmp_path,
                               capture_output=True, text=True, timeout=900)
    assert installed.returncode == 0, installed.stderr
    assert (installed.stdout, installed.stderr) == ("", "")

    env = {k: v for k, v in os.environ.items() if not k.startswith("GOLDTEXT_") and k != "PYTHONPATH"}
    env["GOLDTEXT_INSTANCE_PATH"] = str(tmp_path / "instance")
    demo = subprocess.run([str(venv / "bin" / "goldtext"), "demo", "--no-serve"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=900)
    assert demo.returncode == 0, demo.stdout + demo.stderr
    served = subprocess.run([python, "-c", PAGES_AND_ASSETS], cwd=tmp_path, env=env, capture_output=True,
                            text=True, timeout=300)
    assert served.returncode == 0, served.stderr
    assert {path: code for path, code in json.loads(served.stdout.splitlines()[-1])["status"].items()
            if code != 200} == {}
    # Rendering is an extra: without it a capture that asks for it is refused before it starts, saying why.
    rendered = subprocess.run([str(venv / "bin" / "goldtext"), "capture", "--render", "https://a.example/"],
                              cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert rendered.returncode != 0
    assert "needs Playwright, which is not installed: pip install 'goldtext[render]'" in rendered.stderr
