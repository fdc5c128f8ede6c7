"""The effort a revision records: the active time spent on the page and the actions that made its text.

A save's effort (models.RevisionFields.effort, sent by the annotate and adjudication views' static/js/
effort.js) is what happened since the page was opened or last saved:

    {"active_seconds": float, "actions": {NAME: count, ...}}

`active_seconds` counts the time with focus and input on the page, leaving out every gap between two
events longer than the EFFORT_IDLE_SECONDS setting and the time the page was hidden or unfocused. The
action names are ACTIONS. The save's body schema (usecases/bodies.py `EFFORT`, built from these) refuses
anything else with the reason, so that what the Effort page sums is sound; this module knows nothing of
Flask or of the request.
"""

from __future__ import annotations

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
