"""Module names say what a module holds: no two modules under webapp/ share a file name (docs/code.md,
"Module names"), so that finding where something lives needs no grep."""

from collections import defaultdict
from pathlib import Path

WEBAPP = Path(__file__).resolve().parents[2] / "webapp"


def test_no_two_modules_under_webapp_share_a_file_name():
    found: dict[str, list[str]] = defaultdict(list)
    for path in WEBAPP.rglob("*.py"):
        if path.name != "__init__.py" and not {"migrations", "node_modules", ".venv"} & set(path.parts):
            found[path.name].append(str(path.relative_to(WEBAPP)))
    assert len(found) > 100  # the walk saw the packages
    assert {name: sorted(paths) for name, paths in found.items() if len(paths) > 1} == {}
