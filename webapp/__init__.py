"""Goldtext: a workbench for gold text and for scoring article extractors against it."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from flask import Flask

ROOT = Path(__file__).resolve().parent.parent


def assets(name: str) -> Path:
    """`templates` or `static`: inside the package in an installed wheel (setup.py copies them there),
    else at the top of the checkout."""
    packaged = Path(__file__).resolve().parent / name
    return packaged if packaged.is_dir() else ROOT / name


def checkout_instance() -> str | None:
    """`instance/` of the checkout; None in an installed wheel, where Flask's own default applies
    (`<prefix>/var/webapp-instance`)."""
    return str(ROOT / "instance") if (ROOT / "pyproject.toml").is_file() else None


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    # Imported here, not at the top: `goldtext --help` imports this package and must stay light.
    from flask import Config, Flask

    from .foundation import config
    from .web import db
    from .web.lazy_rules import LazyRule

    instance_path = (
        (test_config or {}).get("INSTANCE_PATH")
        or (None if test_config is not None else os.environ.get(config.ENV_PREFIX + "INSTANCE_PATH"))
        or checkout_instance()
    )
    app = Flask(
        __name__,
        instance_path=instance_path,
        instance_relative_config=True,
        template_folder=str(assets("templates")),
        static_folder=str(assets("static")),
    )
    app.url_rule_class = LazyRule  # URL builders compiled at their first use (web/lazy_rules.py)
    base = config.defaults(app.instance_path)
    app.config.from_mapping(base)
    if test_config is None:
        instance = Config(app.config.root_path)
        instance.from_pyfile("config.py", silent=True)
        values, warnings = config.renamed(instance)
        app.config.update(values)
        app.config.update(config.from_environment(base))
        warnings += config.unknown_variables(base)
    else:
        values, warnings = config.renamed(test_config)
        app.config.update(values)
    for warning in warnings:
        app.logger.warning(warning)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = config.secret_key(app.instance_path)

    from .cli import register
    from .foundation import settings
    from .steps import register_steps
    from .views import register_blueprints
    from .web.access import init_access
    from .web.bad_input import init_bad_input
    from .web.error_pages import init_error_pages
    from .web.navigation import init_navigation
    from .web.old_names import init_old_names
    from .web.security import init_security
    from .web.template_helpers import init_template_helpers

    if app.config.get("SESSION_COOKIE_SAMESITE") is None:
        app.config["SESSION_COOKIE_SAMESITE"] = "Lax"
    app.extensions[settings.EXTENSION] = settings.build_settings(app.config, app.instance_path)
    db.init_app(app)
    register(app)
    init_access(app)
    init_security(app)
    init_bad_input(app)
    init_old_names(app)
    init_template_helpers(app)
    init_navigation(app)
    init_error_pages(app)
    register_blueprints(app)
    register_steps(app)  # the job steps (webapp/steps/), which the job system never imports
    return app
