"""`goldtext demo`: load the bundled demo corpus (once), extract it, and start the app."""

from __future__ import annotations

import json
from pathlib import Path

import click
from flask.cli import with_appcontext

from ..corpus.site_rows import site_named
from ..foundation.settings import settings_of
from ..usecases.manage_rules import set_site_rule
from ..web.db import flask_app, sessions
from .actor import command_actor
from .corpus import echo_report, run_import
from .extract_commands import run_extraction
from .serve import check_binding, check_port, serve_development

DEMO = Path(__file__).resolve().parent.parent / "demo_corpus"


def load_demo_rules() -> int:
    """Store the demo's site rules for sites that have none yet; returns how many were added."""
    added = 0
    with sessions()() as session:
        for host, rule in json.loads((DEMO / "rules.json").read_text()).items():
            if site_named(session, host).rule is None:
                set_site_rule(session, settings_of(flask_app()), command_actor(), host, rule["body"],
                              rule.get("drop", []))
                added += 1
        session.commit()
    return added


def load_demo() -> None:
    batch = run_import([str(DEMO / "pages")], "folder", "url", "loading the demo corpus", keep_empty=False)
    if batch.imported == 0:
        click.echo("demo corpus already loaded")
    else:
        echo_report(batch)
    load_demo_rules()
    run_extraction()


@click.command("demo")
@with_appcontext
@click.option("--serve/--no-serve", default=True, help="Start the app afterwards (default) or stop.")
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=5000, show_default=True)
def demo_command(serve: bool, host: str, port: int) -> None:
    """Load the bundled demo corpus (idempotent), extract it, and start the app (with the embedded
    worker unless a broker is configured)."""
    if serve:
        check_binding(flask_app(), host)
        check_port(host, port)
    load_demo()
    if serve:
        serve_development(flask_app(), host, port, None)


COMMANDS = [demo_command]
