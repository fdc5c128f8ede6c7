"""The app every test makes: testing on, its instance folder in the test's folder, a fixed secret key."""

from __future__ import annotations

from pathlib import Path

from flask import Flask

from webapp import create_app


def make_test_app(folder: Path, database_url: str, **settings) -> Flask:
    instance = folder / "instance"
    instance.mkdir()
    return create_app(
        {
            "TESTING": True,
            "INSTANCE_PATH": str(instance),
            "DATABASE_URL": database_url,
            "SECRET_KEY": "test-secret",
            "EXTRACT_TIMEOUT": 60.0,
            **settings,
        }
    )
