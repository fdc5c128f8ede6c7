"""`goldtext run` (the development server, with the embedded worker) and `goldtext serve` (gunicorn
with several web processes, for a team)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from typing import Any

import click
from flask import Flask
from flask.cli import with_appcontext

from ..accounts.users import accounts_exist
from ..foundation.settings import settings_of
from ..jobs.broker import describe_broker
from ..jobs.workers import EmbeddedWorker
from ..usecases.extract import checked_extractors
from ..usecases.outcome import Refused
from ..web.access import CREATE_ACCOUNT, is_loopback
from ..web.db import database, dispose, flask_app, readers

WORKER_COMMAND = [sys.executable, "-c", "from webapp.cli import main; main()", "worker"]


def embedded_wanted(app: Flask, choice: bool | None) -> bool:
    """The embedded worker runs when asked, and by default when no broker is configured."""
    return (not settings_of(app).workers.broker_url) if choice is None else choice


def check_binding(app: Flask, host: str) -> None:
    """Refuse to serve a non-loopback address while no account exists (local mode trusts whoever can
    reach the port, so it stays on this machine)."""
    if is_loopback(host):
        return
    with readers(app)() as session:
        if accounts_exist(session):
            return
    raise click.ClickException(
        f"refusing to serve {host}: no account exists, and without accounts Goldtext serves only this machine "
        f"(127.0.0.1). Create an account first: {CREATE_ACCOUNT}")


def check_port(host: str, port: int) -> None:
    """Refuse at once, before any work, a port that something else already listens on."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the server binds: TIME_WAIT is no bar
        try:
            probe.bind((host, port))
        except OSError as error:
            raise click.ClickException(
                f"cannot serve on {host}:{port}: {error.strerror or error}. Stop what uses the port, or choose "
                f"another with --port.") from None


def check_upload_extractors(app: Flask) -> None:
    """Refuse to start while UPLOAD_EXTRACTORS names an extractor that cannot run here: every browser
    upload would fail on it."""
    with readers(app)() as session:
        try:
            checked_extractors(session, settings_of(app), settings_of(app).upload_extractors)
        except Refused as error:
            raise click.ClickException(f"UPLOAD_EXTRACTORS: {error.reason}") from None


def serve_development(app: Flask, host: str, port: int, worker: bool | None) -> None:
    """Flask's threaded development server, with the embedded worker unless told otherwise."""
    from werkzeug.serving import run_simple

    database(app)
    check_binding(app, host)
    check_port(host, port)
    check_upload_extractors(app)
    concurrency = settings_of(app).workers.concurrency
    embedded = EmbeddedWorker(app, concurrency) if embedded_wanted(app, worker) else None
    if embedded is not None:
        click.echo(f"embedded worker: {concurrency} at once, broker {describe_broker(app)}")
    try:
        run_simple(host, port, app, threaded=True, use_reloader=False, use_debugger=False)
    finally:
        if embedded is not None:
            embedded.stop()


@click.command("run")
@with_appcontext
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=5000, show_default=True)
@click.option("--worker/--no-worker", default=None,
              help="Run the embedded worker in this process (default: only when no BROKER_URL is set).")
def run_command(host: str, port: int, worker: bool | None) -> None:
    """Start the app on what is stored (development server, one process)."""
    serve_development(flask_app(), host, port, worker)


class Gunicorn:
    """gunicorn's application interface for an already created app (the schema is brought up to date
    before the fork, once, and no connection crosses it)."""

    def __init__(self, app: Flask, options: dict[str, Any]) -> None:
        from gunicorn.app.base import BaseApplication

        class Application(BaseApplication):
            def load_config(inner) -> None:
                for key, value in options.items():
                    inner.cfg.set(key, value)

            def load(inner) -> Flask:
                return app

        self.application = Application()

    def run(self) -> None:
        self.application.run()


@click.command("serve")
@with_appcontext
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=8000, show_default=True)
@click.option("--workers", "processes", type=click.IntRange(min=1), default=2, show_default=True,
              help="Web processes (gunicorn workers, 4 threads each).")
@click.option("--worker/--no-worker", default=None,
              help="Also start one job worker process (default: only when no BROKER_URL is set).")
def serve_command(host: str, port: int, processes: int, worker: bool | None) -> None:
    """Serve the app with gunicorn: several web processes, for a team (see the Deployment guide)."""
    app = flask_app()
    database(app)
    check_binding(app, host)
    check_upload_extractors(app)
    dispose(app)
    child = None
    if embedded_wanted(app, worker):  # it stops when this process is gone, even killed (jobs/lifeline.py)
        child = subprocess.Popen([*WORKER_COMMAND, "--embedded-in", str(os.getpid())])
    try:
        Gunicorn(app, {"bind": f"{host}:{port}", "workers": processes, "threads": 4, "worker_class": "gthread",
                       "timeout": 120, "graceful_timeout": 30, "accesslog": "-",
                       # gunicorn's control socket defaults to one path per user: two servers on a
                       # machine would remove each other's; Goldtext does not use it
                       "control_socket_disable": True}).run()
    finally:
        if child is not None:
            child.terminate()
            child.wait(timeout=60)


COMMANDS = [run_command, serve_command]
