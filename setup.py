"""The wheel carries the app's templates and static files: they live at the top of the repository (the
project's layout) and are copied into the package, as webapp/templates and webapp/static, when it is built.
Everything else about the build is in pyproject.toml."""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ASSETS = ("templates", "static")


class BuildWithAssets(build_py):
    def run(self) -> None:
        super().run()
        if self.editable_mode:  # an editable install reads them from the checkout
            return
        for name in ASSETS:
            shutil.copytree(Path(name), Path(self.build_lib, "webapp", name), dirs_exist_ok=True)


setup(cmdclass={"build_py": BuildWithAssets})
