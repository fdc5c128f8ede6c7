"""Whether a Node.js extractor's npm packages are installed beside its script (readability-js, defuddle), and their
versions for its fingerprint."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from webapp.extractors.blocks import BLOCKS_VERSION


def installed_version(package: str, folder: Path) -> str | None:
    """The version of an npm package installed in the folder's node_modules, or None."""
    try:
        return json.loads((folder / "node_modules" / package / "package.json").read_text())["version"]
    except (OSError, ValueError, KeyError):
        return None


def node_status(node: str | None, folder: Path, packages: Sequence[str], install_hint: str) -> tuple[str, str | None]:
    """(version, None) where Node.js and the packages are there, the version naming each package's; ("unavailable",
    why) where not, with the install command."""
    if node is None:
        return "unavailable", ("Node.js is not installed (no `node` on the PATH): install Node.js 18 or later, "
                               f"then {install_hint}")
    versions = {package: installed_version(package, folder) for package in packages}
    missing = [package for package, found in versions.items() if found is None]
    if missing:
        return "unavailable", f"the npm packages are not installed ({', '.join(missing)} missing): {install_hint}"
    return ", ".join([*(f"{package} {found}" for package, found in versions.items()), BLOCKS_VERSION]), None
