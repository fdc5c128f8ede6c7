"""`goldtext guidelines export` and `import`: the guidelines as Markdown files, one TYPE.md per page type, to
keep them beside a project's other files or carry them to another Goldtext."""

from __future__ import annotations

from pathlib import Path

import click
from flask import current_app
from flask.cli import with_appcontext

from ..annotation.guideline_versions import in_force
from ..foundation.settings import settings_of
from ..usecases.guideline import save_guideline
from ..usecases.outcome import Refused
from ..web.db import sessions
from .actor import command_actor


@click.group("guidelines")
def guidelines_group() -> None:
    """Each page type's guideline (what is main content for that type) as Markdown files."""


@guidelines_group.command("export")
@click.argument("folder", type=click.Path(file_okay=False, path_type=Path))
@with_appcontext
def export_command(folder: Path) -> None:
    """Write the version in force of each type's guideline as FOLDER/TYPE.md (a type without a guideline
    gets no file; files already there are replaced)."""
    page_types = list(settings_of(current_app).taxonomy.page_types)
    with sessions()() as session:
        found = in_force(session, page_types)
        session.rollback()
    folder.mkdir(parents=True, exist_ok=True)
    for page_type, version in found.items():
        if version is None:
            click.echo(f"{page_type}: no guideline yet")
            continue
        (folder / f"{page_type}.md").write_text(version.text, encoding="utf-8")
        click.echo(f"{page_type}: version {version.version} -> {folder / f'{page_type}.md'}")


@guidelines_group.command("import")
@click.argument("folder", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--note", default="imported", show_default=True, help="The note each new version records.")
@with_appcontext
def import_command(folder: Path, note: str) -> None:
    """Save each FOLDER/TYPE.md whose text differs from the type's guideline in force as its new version,
    as an admin's edit would (in the history and the audit log, by cli:LOGIN). A file named for no type of
    the taxonomy in force, or not UTF-8, stops the import and nothing is saved."""
    settings = settings_of(current_app)
    files = sorted(folder.glob("*.md"))
    unknown = [path.name for path in files if path.stem not in settings.taxonomy.page_types]
    if unknown:
        raise click.UsageError(f"{', '.join(unknown)}: no page type of that name in the taxonomy in force "
                               f"({', '.join(settings.taxonomy.page_types)})")
    texts = {}
    for path in files:
        try:
            texts[path.stem] = path.read_text(encoding="utf-8")
        except UnicodeDecodeError as error:
            raise click.ClickException(f"{path} is not UTF-8 text (byte {error.start + 1})") from None
    actor = command_actor()
    saved = []
    with sessions()() as session:
        current = in_force(session, list(texts))
        for page_type, text in texts.items():
            now = current[page_type]
            if now is not None and now.text.strip() == text.replace("\r\n", "\n").strip():
                click.echo(f"{page_type}: unchanged (version {now.version})")
                continue
            try:
                row = save_guideline(session, settings, actor, page_type, text, now.version if now else None, note)
            except Refused as error:
                session.rollback()
                raise click.ClickException(f"{folder / f'{page_type}.md'}: {error.reason}") from None
            saved.append(f"{page_type}: version {row.version}")
        session.commit()
    for line in saved:
        click.echo(line)


COMMANDS = [guidelines_group]
