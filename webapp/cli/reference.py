"""The command reference, docs/cli.md, rendered from the Click commands themselves.

`python -m webapp.cli.reference > docs/cli.md` writes it again; tests/project/test_docs.py fails while the file
differs from `render()`. The page holds what `goldtext COMMAND --help` says (help text, usage line,
options with their defaults); the examples and the longer explanations live in the topical guides, which
each command's section links to.
"""

from __future__ import annotations

import inspect
from collections.abc import Iterator

import click

HEADER = """\
# Command reference

<!-- Generated from the commands' own help by `python -m webapp.cli.reference > docs/cli.md`:
     edit the commands (or webapp/cli/reference.py), not this file. -->

Every command is a subcommand of `goldtext` (`flask --app webapp COMMAND` does the same, except `run`:
under `flask` that is Flask's own development server, without the embedded worker). Each reads the
[settings](deployment.md#settings) and brings the database schema up to date on first use. `goldtext
COMMAND --help` prints what this page says about COMMAND; every command takes `--help`, so the tables
below leave it out.

This page is generated from the commands. The examples and the longer explanations are in the guides:

- [Import layouts and export formats](layouts.md): `goldtext import` and `goldtext export`, with examples.
- [Extractors](extractors.md): `goldtext extract`, `goldtext extractors` and the site rules of
  `goldtext rules`.
- [Metrics](metrics.md): `goldtext score`, `goldtext compare` and `goldtext guard`, what each figure means.
- [Deployment](deployment.md): `goldtext run`, `goldtext serve`, `goldtext worker`, `goldtext jobs`,
  `goldtext db` and the demo.
"""

# Where a command's examples and explanations are: (title, link relative to docs/).
GUIDES: dict[str, tuple[str, str]] = {
    "goldtext agreement": ("Agreement between annotators", "metrics.md#agreement-between-annotators"),
    "goldtext assign": ("Double annotation", "annotating.md#double-annotation"),
    "goldtext capture": ("Capturing pages", "layouts.md#capturing-pages"),
    "goldtext compare": ("Head-to-head", "metrics.md#head-to-head"),
    "goldtext db": ("Schema migrations", "deployment.md#schema-migrations"),
    "goldtext demo": ("The demo corpus", "deployment.md#the-demo-corpus"),
    "goldtext export": ("Exporting", "layouts.md#exporting"),
    "goldtext extract": ("Running extractors", "extractors.md#running-extractors"),
    "goldtext extractors": ("Built-in extractors", "extractors.md#built-in-extractors"),
    "goldtext guard": ("The accept guard", "metrics.md#the-accept-guard"),
    "goldtext import": ("Importing", "layouts.md#importing"),
    "goldtext jobs": ("Jobs and workers", "deployment.md#jobs-and-workers"),
    "goldtext rules": ("Site rules", "extractors.md#site-rules"),
    "goldtext run": ("One machine", "deployment.md#one-machine"),
    "goldtext score": ("Scoring from the command line", "metrics.md#scoring-from-the-command-line"),
    "goldtext serve": ("Deployment", "deployment.md#deployment"),
    "goldtext worker": ("Jobs and workers", "deployment.md#jobs-and-workers"),
}


def goldtext() -> click.Group:
    """The `goldtext` group as the console script runs it, with every command the app registers."""
    from webapp import create_app
    from webapp.cli import main

    app = create_app({"TESTING": True, "SECRET_KEY": "reference", "DATABASE_URL": "sqlite://"})
    group = click.Group(name="goldtext", help=main.help, params=list(main.params),
                        commands=dict(app.cli.commands))
    group.context_settings = dict(main.context_settings)
    return group


def walk(command: click.Command, ctx: click.Context) -> Iterator[tuple[str, click.Command, click.Context]]:
    """'goldtext a b', the command and its context, for the command and everything under it, by name."""
    yield ctx.command_path, command, ctx
    if isinstance(command, click.Group):
        for name, sub in sorted(command.commands.items()):
            if not sub.hidden:
                yield from walk(sub, click.Context(sub, info_name=name, parent=ctx))


def commands() -> dict[str, click.Command]:
    """Every command, group and subcommand of `goldtext`, by its full name ('goldtext rules set')."""
    root = goldtext()
    return {path: command for path, command, _ in walk(root, click.Context(root, info_name="goldtext"))}


def help_text(command: click.Command) -> str:
    """The command's help as --help shows it: dedented, cut at Click's \\f marker, without \\b markers."""
    text = inspect.cleandoc(command.help or "").split("\f", 1)[0]
    return "\n".join(line for line in text.splitlines() if line.strip() != "\b").strip()


def usage(command: click.Command, ctx: click.Context) -> str:
    return " ".join([ctx.command_path, *command.collect_usage_pieces(ctx)])


def cell(text: str) -> str:
    """Text for a Markdown table cell: one line, pipes escaped."""
    return " ".join(text.split()).replace("|", "\\|")


def default(option: click.Option, ctx: click.Context) -> str:
    """The option's default as a reader needs it: `on`/`off` for a flag, the chosen switch of a
    --yes/--no pair, `required`, or the value; '-' where there is none, or where it is computed (the help
    text then says what happens), so that nothing of this machine shows."""
    if option.required:
        return "required"
    # No default given: None, or Click 8.2's UNSET sentinel (which get_default turns into False for flags)
    unset = option.default is None or type(option.default).__name__ == "Sentinel"
    value = option.get_default(ctx, call=False)
    if callable(value) and not unset:
        shown = option.show_default
        return cell(shown) if isinstance(shown, str) else "-"
    if option.is_flag and option.secondary_opts:
        return "-" if unset else f"`{option.opts[-1] if value else option.secondary_opts[-1]}`"
    if option.is_flag:
        return "on" if value and not unset else "off"
    if unset or not isinstance(value, (str, int, float)):
        return "-"
    return f"`{value}`"


def options_table(command: click.Command, ctx: click.Context) -> list[str]:
    rows = []
    help_option = command.get_help_option(ctx)  # every command has --help: the header says so
    for param in command.get_params(ctx):
        if not isinstance(param, click.Option) or param.hidden or param is help_option:
            continue
        record = param.get_help_record(ctx)
        names = record[0] if record else " / ".join(param.opts)
        rows.append(f"| `{cell(names)}` | {default(param, ctx)} | {cell(param.help or '')} |")
    if not rows:
        return []
    return ["| option | default | meaning |", "| --- | --- | --- |", *rows, ""]


def subcommands(group: click.Group, ctx: click.Context) -> list[str]:
    lines = []
    for name, sub in sorted(group.commands.items()):
        if sub.hidden:
            continue
        path = f"{ctx.command_path} {name}"
        summary = sub.get_short_help_str(limit=1000)
        lines.append(f"- [`{path}`](#{anchor(path)}): {summary}")
    return ["Commands:", "", *lines, ""] if lines else []


def guide_of(path: str) -> tuple[str, str] | None:
    """The guide of the command, or of the group it belongs to ('goldtext rules set': the rules')."""
    words = path.split()
    for end in range(len(words), 1, -1):
        found = GUIDES.get(" ".join(words[:end]))
        if found is not None:
            return found
    return None


def anchor(path: str) -> str:
    """The GitHub anchor of the heading '### `goldtext a b`'."""
    return path.replace(" ", "-")


def section(path: str, command: click.Command, ctx: click.Context) -> list[str]:
    lines = [f"### `{path}`", ""]
    text = help_text(command)
    if text:
        lines += [text, ""]
    lines += ["```", usage(command, ctx), "```", ""]
    lines += options_table(command, ctx)
    if isinstance(command, click.Group):
        lines += subcommands(command, ctx)
    guide = guide_of(path)
    if guide is not None:
        title, link = guide
        lines += [f"More: [{title}]({link}).", ""]
    return lines


def render() -> str:
    """docs/cli.md: the header, then one section per command in name order."""
    root = goldtext()
    lines = [HEADER]
    for path, command, ctx in walk(root, click.Context(root, info_name="goldtext")):
        lines += section(path, command, ctx)
    return "\n".join(lines).rstrip("\n") + "\n"


if __name__ == "__main__":
    print(render(), end="")
