"""The README documents every command, every option and every built-in extractor (datasette's test_docs)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import click
import pytest

from webapp import create_app
from webapp.cli import main
from webapp.extractors.registry import build_registry

README = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
REFERENCE = README.split("\n## Command reference\n", 1)[-1].split("\n## ", 1)[0]
HEADING = re.compile(r"^### (.+)$", re.M)


def walk(command: click.Command, path: tuple[str, ...]) -> Iterator[tuple[str, click.Command]]:
    """'goldtext a b' and the command, for the command and every subcommand under it."""
    if isinstance(command, click.Group):
        for name, sub in sorted(command.commands.items()):
            yield from walk(sub, (*path, name))
    else:
        yield " ".join(path), command


def commands() -> dict[str, click.Command]:
    """Every leaf command of `goldtext`: Flask's own (run, shell, routes) and Goldtext's."""
    app = create_app({"TESTING": True, "SECRET_KEY": "docs", "DATABASE_URL": "sqlite://"})
    found = dict(walk(main, ("goldtext",)))
    found.update(walk(app.cli, ("goldtext",)))
    return found


COMMANDS = commands()


def sections() -> dict[str, str]:
    """The reference's sections: each command named in a heading -> the text under that heading."""
    parts = HEADING.split(REFERENCE)
    found = {}
    for heading, body in zip(parts[1::2], parts[2::2]):
        for name in re.findall(r"`(goldtext [a-z -]+)`", heading):
            found[name] = body
    return found


def long_options(command: click.Command) -> list[str]:
    return [opt for param in command.params if isinstance(param, click.Option)
            for opt in (*param.opts, *param.secondary_opts) if opt.startswith("--")]


def test_the_walk_finds_goldtexts_commands():
    assert {"goldtext import", "goldtext extract", "goldtext rules set", "goldtext db upgrade",
            "goldtext run"} <= set(COMMANDS)


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_every_command_is_in_the_readme(name):
    if name in ("goldtext shell", "goldtext routes"):
        assert f"`{name}`" in REFERENCE
    else:
        assert name in sections(), f"no '### `{name}`' heading in the README's command reference"


@pytest.mark.parametrize(
    ("name", "option"),
    [(name, option) for name, command in sorted(COMMANDS.items()) for option in long_options(command)],
)
def test_every_option_is_documented_with_its_command(name, option):
    text = sections().get(name, REFERENCE)
    assert re.search(rf"(?<![\w-]){re.escape(option)}(?![\w-])", text), f"{option} of {name} is not in its section"


@pytest.mark.parametrize("name", list(build_registry()))
def test_every_registered_extractor_is_in_the_readme(name):
    built_ins = README.split("\n## Built-in extractors\n", 1)[-1]
    assert f"- `{name}`: " in built_ins
