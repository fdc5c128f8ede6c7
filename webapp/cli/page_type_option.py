"""The --type option of the commands that take page types, and --kind, its old name: kept hidden for one
release (it goes in the next one), it still works and says to use --type (cli/renamed_option.py)."""

from __future__ import annotations

from typing import Any

from .renamed_option import deprecation, renamed_option

OLD_FLAG_NOTE = deprecation("--type", "--kind")


def page_type_option(**kwargs: Any):
    """`--type TYPE` (repeatable, into `page_types`) and the hidden, deprecated `--kind TYPE`."""
    kwargs["help"] = kwargs.get("help", "") + " (--kind, its old name, works until the next release.)"
    return renamed_option("--type", "--kind", "page_types", metavar="TYPE", **kwargs)
