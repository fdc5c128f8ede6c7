"""The effort a revision records: the active time spent on the page and the actions that made its text.

A save's effort (models.RevisionFields.effort, sent by the annotate and adjudication views' static/js/
effort.js) is what happened since the page was opened or last saved:

    {"active_seconds": float, "actions": {NAME: count, ...}}

`active_seconds` counts the time with focus and input on the page, leaving out every gap between two
events longer than the EFFORT_IDLE_SECONDS setting and the time the page was hidden or unfocused. The
action names are ACTIONS. `checked_effort` refuses anything else with the reason, so that what the
Effort page sums is sound; this module knows nothing of Flask or of the request.
"""

from __future__ import annotations

from typing import Any, TypeGuard

ACTIONS: dict[str, str] = {
    "block": "a click (or t) on a block of the page, or on an outlined container: in or out of the text",
    "range": "a Shift+click (or T) range of blocks",
    "widen": "a press of + that outlined a wider container",
    "take": "a candidate's line (or, in adjudication, an annotator's line) taken",
    "take_run": "a run of a candidate's lines taken at once",
    "replace_region": "a region of the text replaced by a candidate's version of it",
    "use_candidate": "the whole text replaced by a candidate's (or, in adjudication, an annotator's)",
    "drop_boilerplate": "every line repeated on the site's pages taken out at once",
    "typed_words": "words typed: runs of non-space characters added by typing",
    "deleted_words": "words deleted by typing, outside whole lines deleted",
    "line_deletions": "whole lines deleted by typing",
}
"""Every action a revision's effort may count, and what it is (docs/annotating.md lists them)."""

MAX_SECONDS = 24 * 3600.0
"""The most active seconds one save may record: a day (a page left open longer is not one sitting)."""
MAX_COUNT = 1_000_000
"""The most of one action one save may record."""


def checked_effort(value: Any) -> dict[str, Any]:
    """The effort, stored as it is given when it is sound (actions may be left out: none); ValueError
    naming what is wrong: an unknown key, seconds that are not a number from 0 to MAX_SECONDS, an unknown
    action, a count that is not an integer from 0 to MAX_COUNT."""
    if not isinstance(value, dict):
        raise ValueError("effort must be an object")
    unknown = sorted(set(value) - {"active_seconds", "actions"})
    if unknown:
        raise ValueError(f"effort has unknown keys: {', '.join(unknown)} (it has active_seconds and actions)")
    seconds = value.get("active_seconds")
    if not _number(seconds) or not 0 <= seconds <= MAX_SECONDS:
        raise ValueError(f"effort.active_seconds must be a number from 0 to {MAX_SECONDS:g}, not {seconds!r}")
    actions = value.get("actions", {})
    if not isinstance(actions, dict):
        raise ValueError("effort.actions must be an object of counts")
    strange = sorted(set(actions) - set(ACTIONS))
    if strange:
        raise ValueError(f"effort.actions names unknown actions: {', '.join(strange)} "
                         f"(known: {', '.join(ACTIONS)})")
    for name, count in actions.items():
        if not isinstance(count, int) or isinstance(count, bool) or not 0 <= count <= MAX_COUNT:
            raise ValueError(f"effort.actions.{name} must be an integer from 0 to {MAX_COUNT}, not {count!r}")
    return value


def _number(value: Any) -> TypeGuard[float]:
    return isinstance(value, int | float) and not isinstance(value, bool) and value == value  # not NaN
