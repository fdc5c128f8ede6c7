"""The documentation stays true (datasette's test_docs): the command reference is the commands' own help,
every command, option, extractor and setting is documented, every link and anchor leads somewhere, and
the README stays a front page."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import click
import pytest

from webapp import create_app
from webapp.cli import main
from webapp.cli.reference import render
from webapp.extractors.registry import build_registry
from webapp.foundation.config import defaults

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
README = ROOT / "README.md"
PAGES = [README, *sorted(DOCS.glob("*.md"))]
CLI = (DOCS / "cli.md").read_text(encoding="utf-8")
REGENERATE = "docs/cli.md is out of date: run python -m webapp.cli.reference > docs/cli.md"

README_MAX_LINES = 120
INSTALL_AND_DEMO = ("python3 -m venv .venv && . .venv/bin/activate && pip install --upgrade pip && "
                    "pip install -e . && goldtext demo")
INSTALL_AND_TEST = ("python3 -m venv .venv && . .venv/bin/activate && pip install --upgrade pip && "
                    "pip install -e '.[test]' && python -m pytest -n 2")
ENVIRONMENT_ONLY = {"INSTANCE_PATH"}  # read by create_app from GOLDTEXT_INSTANCE_PATH, not a config key


# --- the commands, walked here independently of webapp/cli/reference.py ---------------------------------


def walk(command: click.Command, path: tuple[str, ...]) -> Iterator[tuple[str, click.Command]]:
    """'goldtext a b' and the command, for the command and every subcommand under it."""
    yield " ".join(path), command
    if isinstance(command, click.Group):
        for name, sub in sorted(command.commands.items()):
            yield from walk(sub, (*path, name))


def commands() -> dict[str, click.Command]:
    """Every command and group of `goldtext`: Flask's own (shell, routes) and Goldtext's."""
    app = create_app({"TESTING": True, "SECRET_KEY": "docs", "DATABASE_URL": "sqlite://"})
    found = dict(walk(main, ("goldtext",)))
    for name, command in app.cli.commands.items():
        found.update(walk(command, ("goldtext", name)))
    return found


COMMANDS = commands()


def long_options(command: click.Command) -> list[str]:
    """The options the reference shows: a hidden one is an old name kept for a release (its guide says so)."""
    return [opt for param in command.params if isinstance(param, click.Option) and not param.hidden
            for opt in (*param.opts, *param.secondary_opts) if opt.startswith("--")]


def cli_sections() -> dict[str, str]:
    """docs/cli.md's sections: the command named in a '### `goldtext ...`' heading -> the text under it."""
    parts = re.split(r"^### `(goldtext[a-z -]*)`$", CLI, flags=re.M)
    return dict(zip(parts[1::2], parts[2::2]))


def test_the_command_reference_is_generated_from_the_commands():
    assert CLI == render(), REGENERATE


def test_the_walk_finds_goldtexts_commands():
    assert {"goldtext import", "goldtext extract", "goldtext rules set", "goldtext db upgrade",
            "goldtext run", "goldtext jobs", "goldtext jobs cancel"} <= set(COMMANDS)
    assert not {"goldtext shell", "goldtext routes"} & set(COMMANDS)  # Flask's own: not Goldtext's


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_every_command_has_a_section_in_the_reference(name):
    assert name in cli_sections(), f"no '### `{name}`' heading in docs/cli.md; {REGENERATE}"


@pytest.mark.parametrize(
    ("name", "option"),
    [(name, option) for name, command in sorted(COMMANDS.items()) for option in long_options(command)],
)
def test_every_option_is_in_its_commands_section(name, option):
    text = cli_sections().get(name, "")
    assert re.search(rf"(?<![\w-]){re.escape(option)}(?![\w-])", text), f"{option} of {name} is not in its section"


# --- extractors and settings -------------------------------------------------------------------------


def section(text: str, heading: str) -> str:
    """The text under a '## heading' up to the next heading of that level."""
    assert f"\n## {heading}\n" in text, f"no '## {heading}' heading"
    return text.split(f"\n## {heading}\n", 1)[1].split("\n## ", 1)[0]


@pytest.mark.parametrize("name", list(build_registry()))
def test_every_registered_extractor_is_documented(name):
    built_ins = section((DOCS / "extractors.md").read_text(encoding="utf-8"), "Built-in extractors")
    assert f"- `{name}`: " in built_ins, f"{name} is not listed under docs/extractors.md's Built-in extractors"


def settings_table() -> list[str]:
    """The settings named in the first column of docs/deployment.md's settings table."""
    text = section((DOCS / "deployment.md").read_text(encoding="utf-8"), "Settings")
    return re.findall(r"^\| `([A-Z][A-Z0-9_]*)` \|", text, re.M)


@pytest.mark.parametrize("setting", sorted(defaults("instance")))
def test_every_setting_is_in_the_settings_table(setting):
    assert setting in settings_table(
        ), f"{setting} (webapp/foundation/config.py) is not in docs/deployment.md's settings table"


def test_the_settings_table_names_only_real_settings():
    assert set(settings_table()) - set(defaults("instance")) - ENVIRONMENT_ONLY == set()
    assert len(settings_table()) == len(set(settings_table())), "a setting is listed twice"


# --- links and anchors ---------------------------------------------------------------------------------

FENCE = re.compile(r"^(```|~~~).*?^\1", re.S | re.M)
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(([^()\s]+)(?:\s+\"[^\"]*\")?\)")


def prose(text: str) -> str:
    """The text without fenced code blocks and inline code, where a bracket is not a link."""
    return re.sub(r"`[^`\n]*`", "", FENCE.sub("", text))


def slug(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped (hyphens and underscores kept),
    spaces made hyphens."""
    text = re.sub(r"<[^>]+>", "", heading).strip().lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """Every heading's anchor in a Markdown file, with GitHub's -1, -2 suffixes for repeated ones."""
    found: set[str] = set()
    seen: dict[str, int] = {}
    for heading in re.findall(r"^#{1,6} +(.+?) *#*$", FENCE.sub("", path.read_text(encoding="utf-8")), re.M):
        base = slug(heading)
        count = seen.get(base, 0)
        found.add(base if count == 0 else f"{base}-{count}")
        seen[base] = count + 1
    return found


def links() -> list[tuple[str, str]]:
    """(page, target) of every relative link and image in the README and docs/*.md."""
    found = []
    for page in PAGES:
        for target in LINK.findall(prose(page.read_text(encoding="utf-8"))):
            if not re.match(r"[a-z][a-z0-9+.-]*:", target):  # http:, https:, mailto: are not checked
                found.append((str(page.relative_to(ROOT)), target))
    return found


@pytest.mark.parametrize(("page", "target"), links())
def test_every_relative_link_leads_to_a_file_and_heading_that_exist(page, target):
    path, _, anchor = target.partition("#")
    destination = (ROOT / page).parent / path if path else ROOT / page
    assert destination.exists(), f"{page} links to {target}: no such file"
    if anchor:
        assert destination.suffix == ".md", f"{page} links to an anchor in a file that is not Markdown: {target}"
        assert anchor in anchors(destination), f"{page} links to {target}: no heading has that anchor"


def test_the_link_checker_sees_links_and_headings():
    assert ("README.md", "docs/images/annotate.png") in links()
    assert ("docs/layouts.md", "metrics.md#metrics") in links()
    assert {"settings", "jobs-and-workers"} <= anchors(DOCS / "deployment.md")
    assert {"goldtext-rules-set", "goldtext-db-upgrade"} <= anchors(DOCS / "cli.md")
    assert slug("Snippets: must include and must exclude") == "snippets-must-include-and-must-exclude"
    assert slug("`goldtext jobs cancel`") == "goldtext-jobs-cancel"


# --- the README as a front page ------------------------------------------------------------------------


def test_the_readme_fits_on_two_screens():
    lines = README.read_text(encoding="utf-8").count("\n")
    assert lines <= README_MAX_LINES, f"README.md has {lines} lines; move detail into docs/"


def test_the_readme_keeps_the_two_commands_verbatim():
    """The quickstart and the test command are a contract (CI runs the second)."""
    lines = README.read_text(encoding="utf-8").splitlines()
    assert INSTALL_AND_DEMO in lines
    assert INSTALL_AND_TEST in lines


def test_the_readme_links_every_guide():
    linked = {target for page, target in links() if page == "README.md"}
    for guide in sorted(DOCS.glob("*.md")):
        assert f"docs/{guide.name}" in linked, f"README.md does not link docs/{guide.name}"
