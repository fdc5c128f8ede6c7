"""What a face's function calls, read from its source: the use cases (functions stating a role,
usecases/outcome.py) and the writes of its own (an audit record, a job made, a row added or deleted), itself or
through a helper of the faces. The tests that every action is one use-case call read it (tests/faces)."""

from __future__ import annotations

import ast
import importlib
import inspect
import textwrap
import types
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import click

from webapp.cli.command_index import COMMANDS
from webapp.usecases.outcome import role_of

FACES = ("webapp.views", "webapp.web", "webapp.cli", "webapp.steps")

WRITERS = frozenset({"create_job", "start_batch", "refresh_scores", "queue_follow_up", "import_documents", "run_export",
                     "export_pipeline", "store", "store_on_rendering", "refresh_disagreement",
                     "refresh_predicted_quality", "run_checks", "delete", "update", "insert"})
"""Domain functions that change data (or write an export; SQLAlchemy's statements that do): a face leaves them to
its use case. A job step's bookkeeping of its own job (its progress, stage, result and files: jobs/) is the
face's, as a view's answer is."""

SESSION_WRITES = frozenset({"add", "add_all", "delete", "merge"})


@dataclass
class Calls:
    use_cases: set[Callable] = field(default_factory=set)
    writes: set[str] = field(default_factory=set)  # each write of the face's own, as "module.function: call"


def calls_of(func: Callable, found: Calls | None = None, seen: set | None = None) -> Calls:
    """The use cases and own writes of a face's function: every name it uses, resolved in its module."""
    found = Calls() if found is None else found
    seen = set() if seen is None else seen
    func = inspect.unwrap(func)
    if func in seen or not isinstance(func, types.FunctionType):
        return found
    seen.add(func)
    where = f"{func.__module__}.{func.__qualname__}"
    for node in ast.walk(ast.parse(textwrap.dedent(inspect.getsource(func)))):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            owner = node.func.value
            if node.func.attr == "record" or (node.func.attr in SESSION_WRITES and isinstance(owner, ast.Name)
                                              and owner.id.endswith("session")):
                found.writes.add(f"{where}: .{node.func.attr}()")
        target = None
        if isinstance(node, ast.Name):
            target = func.__globals__.get(node.id)
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            owner_object = func.__globals__.get(node.value.id)
            target = getattr(owner_object, node.attr, None) if isinstance(owner_object, types.ModuleType) else None
        if not isinstance(target, types.FunctionType):  # request, session and other proxies are no use case
            continue
        if role_of(target) is not None:
            found.use_cases.add(target)
        elif target.__name__ in WRITERS and not target.__module__.startswith(FACES):
            found.writes.add(f"{where}: {target.__name__}()")
        elif (target.__module__ or "").startswith(FACES):
            calls_of(target, found, seen)
    return found


def use_cases_called(func: Callable) -> set[Callable]:
    """The use cases (functions stating a role) a face's function calls, itself or through a face's helper."""
    return calls_of(func).use_cases


def commands() -> Iterator[tuple[str, click.Command]]:
    """Every `goldtext` command and sub-command, by its full name ("users add")."""
    for name, entry in COMMANDS.items():
        module = importlib.import_module(f"webapp.cli.{entry.module}")
        (command,) = [c for c in module.COMMANDS if c.name == name]
        if isinstance(command, click.Group):
            for sub_name, sub in command.commands.items():
                yield f"{name} {sub_name}", sub
        yield name, command
