"""Checks of the gold itself, before a gold set is published: each takes what one page says (its gold, its
visible text, its extractors' texts, its annotators' texts) and returns the reason it fails, or None.

Pure: no database, no Flask. The thresholds are settings (`Thresholds`); results/gold_check_runs.py reads
the pages and keeps what fails.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from .agreement_maths import text_f1
from .content_tokens import repeated_runs, tokens

LOW_SCORES = "low-scores"
MARKUP = "markup"
UNKNOWN_WORDS = "unknown-words"
TRUNCATED = "truncated"
TYPE_MISMATCH = "type-mismatch"
DISAGREEMENT = "disagreement"
REPEATED_TEXT = "repeated-text"
DATE_OUT_OF_RANGE = "date-out-of-range"
METADATA_NOT_ON_PAGE = "metadata-not-on-page"
METADATA_MISSING = "metadata-missing"

CHECKS: dict[str, str] = {
    LOW_SCORES: "every extractor scores below a threshold against the gold",
    MARKUP: "HTML tags, entities or annotation markers left in the gold",
    UNKNOWN_WORDS: "words in the gold that the page does not show",
    TRUNCATED: "the gold stops inside a block of the page, or is much shorter than every extractor's text",
    TYPE_MISMATCH: "a type without main content whose gold has text, or the reverse",
    REPEATED_TEXT: "the gold holds the same content twice (however split or formatted), the page once",
    DISAGREEMENT: "double-annotated, the annotators disagree, and nobody adjudicated",
    DATE_OUT_OF_RANGE: "the gold's date is in the future or before the site existed (scoring/metadata_checks.py)",
    METADATA_NOT_ON_PAGE: "the gold's title or an author is not on the page",
    METADATA_MISSING: "a metadata field the page type expects is not annotated",
}
"""Each check's name, in the order reports list them, and what it looks for."""

EXAMPLES = 5  # words or pieces of markup quoted in a reason
MIN_CUT_LINE = 20  # characters: a shorter last line that opens a longer block is a heading, not a cut


@dataclass(frozen=True)
class Thresholds:
    """The settings the checks take (CHECK_LOW_SCORE, CHECK_UNKNOWN_WORDS, CHECK_SHORT_GOLD,
    CHECK_MIN_AGREEMENT, CHECK_REPEAT_WORDS)."""

    low_score: float = 0.5
    unknown_words: float = 0.02
    short_gold: float = 0.3
    min_agreement: float = 0.8
    repeat_words: int = 20


_TAG = re.compile(r"</?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?/?>")
_ENTITY = re.compile(r"&(?:[A-Za-z][A-Za-z0-9]{1,31}|#[0-9]{1,7}|#[xX][0-9A-Fa-f]{1,6});")
_MARKER = re.compile(r"^(?:URL:\s*\S+|<[phl]>)", re.MULTILINE)
_WORD = re.compile(r"\w+")


def _quoted(items: Iterable[str]) -> str:
    return ", ".join(repr(item) for item in items)


def _first(items: Iterable[str], count: int = EXAMPLES) -> list[str]:
    seen: list[str] = []
    for item in items:
        if item not in seen:
            seen.append(item)
        if len(seen) == count:
            break
    return seen


def _clip(text: str, size: int = 80, tail: bool = False) -> str:
    """At most `size` characters of the text, its end (`tail`) or its start, an ellipsis where it is cut."""
    if len(text) <= size:
        return text
    return "…" + text[-size:] if tail else text[:size] + "…"


def low_scores(f1_by_extractor: Mapping[str, float], threshold: float) -> str | None:
    """Every extractor's F1 against the gold below `threshold` (WCXB sends such a page back for review);
    None when the page has no extraction to judge by."""
    if not f1_by_extractor:
        return None
    best, name = max((f1, name) for name, f1 in f1_by_extractor.items())
    if best >= threshold:
        return None
    return f"every extractor scores below {threshold:g} against the gold (best: {name} {best:.3f})"


def markup(gold: str, visible: str) -> str | None:
    """HTML tags, character entities or annotation markers (CleanEval's <p>, <h>, <l> and its URL: line)
    in the gold that the page does not show as text itself (a page about HTML shows tags, and its gold
    rightly keeps them)."""
    found = [piece for pattern in (_TAG, _ENTITY, _MARKER) for piece in pattern.findall(gold)
             if piece not in visible]
    if not found:
        return None
    return f"markup left in the gold: {_quoted(_first(found))}"


def words(text: str) -> list[str]:
    """The gold's and the page's words for comparison: runs of word characters, case folded."""
    return [word.casefold() for word in _WORD.findall(text)]


def unknown_words(gold: str, shown: str, tolerance: float) -> str | None:
    """More than `tolerance` of the gold's words (a share) are words the page does not show (`shown`: its
    visible text and title): typos, or text from elsewhere."""
    gold_words = words(gold)
    if not gold_words:
        return None
    known = set(words(shown))
    unknown = [word for word in gold_words if word not in known]
    share = len(unknown) / len(gold_words)
    if share <= tolerance:
        return None
    return (f"{len(unknown)} of the gold's {len(gold_words)} words ({share:.1%}) are not in the page's "
            f"visible text: {_quoted(_first(unknown))}")


def truncated(gold: str, blocks: Sequence[str], extractions: Iterable[str], short_gold: float) -> str | None:
    """The gold's last line is cut inside a block of the page (it opens a longer block and is no block of
    its own), or the gold has fewer than `short_gold` times the words of the shortest extractor text."""
    lines = [" ".join(line.split()) for line in gold.splitlines() if line.strip()]
    if not lines:
        return None
    last = lines[-1]
    if len(last) >= MIN_CUT_LINE and last not in blocks:
        for block in blocks:
            if block.startswith(last):
                return f"the gold ends with {_clip(last, tail=True)!r}, cut inside the page's block {_clip(block)!r}"
    lengths = [len(words(text)) for text in extractions if text.strip()]
    gold_length = len(words(gold))
    if lengths and gold_length < short_gold * min(lengths):
        return (f"the gold has {gold_length} words, fewer than {short_gold:g} times the {min(lengths)} of the "
                f"shortest extractor text")
    return None


def type_mismatch(page_type: str, has_content: bool, gold: str) -> str | None:
    """A type with no main content whose gold has text, or a type with main content and an empty gold."""
    count = len(words(gold))
    if not has_content and count:
        return f"the type {page_type!r} has no main content, but the gold has {count} words"
    if has_content and not count:
        return f"the type {page_type!r} has main content, but the gold is empty"
    return None


def disagreement(texts: Mapping[str, str], adjudicated: bool, min_agreement: float) -> str | None:
    """Two annotators or more whose mean pairwise text F1 is below `min_agreement`, and no adjudicated
    gold."""
    if adjudicated or len(texts) < 2:
        return None
    names = sorted(texts)
    pairs = [(a, b) for i, a in enumerate(names) for b in names[i + 1:]]
    mean = sum(text_f1(texts[a], texts[b]) for a, b in pairs) / len(pairs)
    if mean >= min_agreement:
        return None
    return (f"the annotators ({', '.join(names)}) agree to text F1 {mean:.3f}, below {min_agreement:g}, and "
            "nobody adjudicated")


def repeated_text(gold: str, shown: str, size: int) -> str | None:
    """A run of `size` words or more (of the content tokens, scoring/content_tokens.py: list markers,
    punctuation, case and line splits left out) that the gold holds twice where the page shows the run
    once: content taken in twice, in the same form or another."""
    found, page = _words(tokens(gold)), _words(tokens(shown))
    runs = [(first, again, length) for first, again, length in repeated_runs(found, size)
            if _count(page, found[again:again + length]) < 2]
    if not runs:
        return None
    repeated = sum(length for _, _, length in runs)
    first, again, length = runs[0]
    return (f"{repeated} of the gold's {len(found)} words repeat content it already has, which the page "
            f"shows once (first: {_clip(' '.join(found[again:again + length]))!r}, words {first + 1} and "
            f"{again + 1})")


def _words(found: list[str]) -> list[str]:
    return [token for token in found if token[0].isalnum()]


def _count(text: list[str], part: list[str]) -> int:
    """How many times the tokens `part` come one after the other in `text` (overlapping ones too)."""
    width = len(part)
    return sum(text[at:at + width] == part for at in range(len(text) - width + 1))
