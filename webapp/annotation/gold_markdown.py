"""The two views of a gold: its Markdown and its plain text, and how they relate.

A gold, an annotation and each of their revisions store both (models.Gold): ``markdown``, the gold as
Markdown, and ``text``, the plain text that every text metric, check and agreement figure reads.
``text_source`` says where the plain text came from (vocabulary.TEXT_SOURCES):

- ``derived``: it is the Markdown's plain text (scoring/markdown_text.py `plain_text`): what a person's
  save of Markdown stores, and an import of a layout that gives only Markdown;
- ``given``: it was given apart from the Markdown, as a benchmark ships both (WCXB's `main_content` and
  `main_content_markdown`): each is kept exactly as given, and the two may say different things (the
  annotate view says so);
- ``flat``: it was given alone (a gold saved before golds were Markdown, a save or an import of text
  only): the Markdown is that text with Markdown's markup characters escaped, one paragraph per line
  (`markdown_of_text`), so that the text is exactly what was given.
"""

from __future__ import annotations

from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Any, Protocol

from ..corpus.visible_text import normalise_line
from ..foundation.vocabulary import DERIVED, FLAT, GIVEN
from ..scoring.markdown_text import markdown_of_line, markdown_of_text, plain_text


class HasViews(Protocol):
    text: str
    markdown: str
    text_source: str


@dataclass(frozen=True)
class GoldViews:
    text: str
    markdown: str
    text_source: str

    def fields(self) -> dict[str, str]:
        """The three as the columns of a gold, an annotation or a revision."""
        return {"text": self.text, "markdown": self.markdown, "text_source": self.text_source}


def views_of(*, text: str | None = None, markdown: str | None = None) -> GoldViews:
    """Both views from what was given: the Markdown alone (its plain text derived), the text alone (its
    Markdown escaped from it), or both (kept as given)."""
    if markdown is None:
        return GoldViews(text or "", markdown_of_text(text or ""), FLAT)
    if text is None:
        return GoldViews(plain_text(markdown), markdown, DERIVED)
    return GoldViews(text, markdown, GIVEN)


def views_from(record: HasViews) -> GoldViews:
    """The views a stored gold, annotation or revision holds, to carry them to another record unchanged."""
    return GoldViews(record.text, record.markdown, record.text_source)


def with_views(fields: dict[str, Any]) -> dict[str, Any]:
    """A record's fields with both views and their source: as given when ``text_source`` is, else made by
    ``views_of`` from the text and the Markdown given."""
    if "text_source" in fields:
        return fields
    return fields | views_of(text=fields.get("text"), markdown=fields.get("markdown")).fields()


def edited_text(views: GoldViews) -> str:
    """The view a person edited, whose lines a provenance names (annotation/provenance.py): the Markdown
    when the text is derived from it, else the text."""
    return views.markdown if views.text_source == DERIVED else views.text


def editor_markdown(record: HasViews) -> str:
    """The Markdown the gold editor starts from: the record's; for a flat text, its lines escaped one a line
    (not a blank line apart), as the editor always showed them: a line of a paragraph is a line of its plain
    text (scoring/markdown_text.py), so saving it unedited keeps the text as it is."""
    return lines_markdown(record.text) if record.text_source == FLAT else record.markdown


def lines_markdown(text: str) -> str:
    """Plain text as the editor's Markdown: each non-empty line escaped (markdown_of_line), one a line."""
    return "\n".join(markdown_of_line(line) for line in text.split("\n") if line.strip())


def plain_line(line: str) -> str:
    """One line of the editor's Markdown as plain text, whitespace-normalised (to compare it with a page's
    lines)."""
    return normalise_line(plain_text(line))


DIFF_CONTEXT = 1  # lines shown around each difference of the two golds
DIFF_MAX = 400  # lines of that diff shown at most (the counts are of all)


@dataclass(frozen=True)
class DiffLine:
    """A line of the two golds' diff: `side` is "text" (the given plain text alone has it), "markdown" (the
    Markdown's plain text alone has it), "same" (both: context) or "gap" (lines both have, left out)."""

    side: str
    line: str


@dataclass(frozen=True)
class TwoGolds:
    """Where a page's two given golds differ: the lines of its plain text that the Markdown's plain text
    lacks, and the other way round (counted once each), and a line diff of the one against the other
    (`diff`, cut to DIFF_MAX lines: `cut` says so)."""

    only_text: int
    only_markdown: int
    diff: tuple[DiffLine, ...] = ()
    cut: bool = False


def two_golds(record: HasViews) -> TwoGolds | None:
    """Where the record's two golds differ, when it carries two that differ (its text given apart from its
    Markdown, and not the Markdown's plain text); else None."""
    if record.text_source != GIVEN:
        return None
    derived = plain_text(record.markdown)
    if derived == record.text:
        return None
    text_lines, markdown_lines = record.text.split("\n"), derived.split("\n")
    shown = _line_diff(text_lines, markdown_lines)
    return TwoGolds(len(set(text_lines) - set(markdown_lines)), len(set(markdown_lines) - set(text_lines)),
                    tuple(shown[:DIFF_MAX]), len(shown) > DIFF_MAX)


def _line_diff(text: list[str], markdown: list[str]) -> list[DiffLine]:
    """The given text's lines against the Markdown's plain text's (difflib), DIFF_CONTEXT lines of context
    around each change, a "gap" where equal lines are left out."""
    out: list[DiffLine] = []
    for group in SequenceMatcher(None, text, markdown, autojunk=False).get_grouped_opcodes(DIFF_CONTEXT):
        if out:
            out.append(DiffLine("gap", "…"))
        for tag, i1, i2, j1, j2 in group:
            if tag == "equal":
                out.extend(DiffLine("same", line) for line in text[i1:i2])
                continue
            out.extend(DiffLine("text", line) for line in text[i1:i2])
            out.extend(DiffLine("markdown", line) for line in markdown[j1:j2])
    return out
