"""The app's URL rules, whose URL builders are compiled at their first use: werkzeug compiles two builder
functions for every rule as the rule is added (about 60 ms of each `create_app` for the app's 190 rules,
most of which a process never builds a URL of)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from werkzeug.routing import Rule


class LazyRule(Rule):
    """A rule whose builder (`url_for`'s) is compiled the first time a URL of it is built; matching is
    werkzeug's own, compiled as before."""

    def _compile_builder(self, append_unknown: bool = True) -> Callable[..., tuple[str, str]]:
        compiled: list[Callable[..., tuple[str, str]]] = []

        def build(rule: Rule, *args: Any, **kwargs: Any) -> tuple[str, str]:
            if not compiled:  # two threads may compile it both: the same function either way
                compiled.append(Rule._compile_builder(rule, append_unknown).__get__(rule, None))
            return compiled[0](*args, **kwargs)

        return build
