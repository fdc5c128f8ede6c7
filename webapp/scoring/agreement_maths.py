"""Agreement between annotators who annotated the same pages independently (pure: no database).

Definitions (docs/metrics.md, "Agreement between annotators"):

- *text F1* of a pair: the `tokens` metric applied to one annotator's text against the other's (the
  same F1 either way round); two texts with identical token sequences agree fully (1.0), so two empty
  texts count as agreeing, where the metric would give 0. A page's text F1 is the mean over its pairs;
  the corpus figure is the mean over pages (each page weighs the same).
- *type agreement*: the share of pairs, over all pages, that chose the same page type.
- *type alpha*: Krippendorff's alpha, nominal level, on the page type (units: pages, coders:
  annotators); None when it is undefined: every annotation has the same type.
- *snippet agreement* of a pair: the Jaccard index of their snippet sets (a snippet is its list, must
  include or must exclude, and its text); pairs where neither has a snippet are left out. The corpus
  figure is the mean over the pairs counted; None when there is none.
- *metadata agreement* of each field (title, authors, published): the share of pairs, over all pages, whose
  values agree after the field's normalisation, counting only the pairs where both annotated the field
  (scoring/metadata_agreement.py).
- *annotator noise* on a set of pages: 1 minus the mean text F1 of the double-annotated pages among
  them. A difference of corpus F1 between two extractors smaller than it is "within annotator noise".
- each annotator's *F1 against the gold*: their text F1 against the adjudicated gold (same pair rule),
  the mean over their adjudicated pages.

With ``only`` (one annotator) the pair figures count the pairs that include that annotator.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from statistics import fmean
from typing import Any

import krippendorff
import numpy as np

from ..foundation.kept import Kept
from .metadata_agreement import pair_counts, rates
from .token_overlap import counts, page_scores

GROUPINGS = ("site", "type", "annotator", "guideline")
TEXT_CHARS_KEPT = 40_000_000
"""Characters of the pairs of texts whose F1 is kept per process (40 MB for texts in Latin script)."""


@dataclass(frozen=True)
class Said:
    """One annotator's annotation of a page."""

    author: str
    text: str
    page_type: str
    snippets: Mapping[str, Sequence[str]] | None = None
    guideline_version: int | None = None  # of the type's guideline, in force when the annotation was saved
    markdown: str = ""  # the annotation as Markdown, which the structure metrics score
    article_metadata: Mapping[str, Any] | None = None  # its title, authors and date, which the metadata metrics score


@dataclass(frozen=True)
class AnnotatedPage:
    """A page annotated by two annotators or more; ``gold``: its adjudicated text (None: not yet)."""

    page_id: Hashable
    said: tuple[Said, ...]
    gold: str | None = None
    site: str = ""
    gold_page_type: str | None = None

    @property
    def page_type(self) -> str:
        """The adjudicated type; before adjudication, the type most annotators chose (ties: the one
        chosen first)."""
        if self.gold_page_type is not None:
            return self.gold_page_type
        return Counter(s.page_type for s in self.said).most_common(1)[0][0]


def text_f1(a: str, b: str) -> float:
    """The `tokens` F1 of ``a`` against ``b``; 1.0 when their token sequences are identical (even empty).
    Kept per process (`_KEPT`): the Agreement page, the leaderboard's noise mark and the command compute
    the same pairs on every request, and a pair's F1 never changes (an edited text is another key)."""
    return _KEPT.get((a, b), lambda: _text_f1(a, b))


def _text_f1(a: str, b: str) -> float:
    found = counts(a, b)
    if found["exact"]:
        return 1.0
    fields = {key: np.array([float(found[key])]) for key in ("hit", "extracted", "gold")}
    return float(page_scores(fields)[2][0])


_KEPT: Kept[float] = Kept(TEXT_CHARS_KEPT, size=lambda pair, _: len(pair[0]) + len(pair[1]))
"""The F1 of the most recent pairs of texts, keyed by the texts themselves (so a hit is exact, never a
hash collision), up to TEXT_CHARS_KEPT characters of texts in all."""


def snippet_set(snippets: Mapping[str, Sequence[str]] | None) -> set[tuple[str, str]]:
    return {(key, text) for key, texts in (snippets or {}).items() for text in texts}


def snippet_jaccard(a: Mapping[str, Sequence[str]] | None, b: Mapping[str, Sequence[str]] | None) -> float | None:
    """|A ∩ B| / |A ∪ B| of the two snippet sets; None when both are empty."""
    first, second = snippet_set(a), snippet_set(b)
    union = first | second
    return len(first & second) / len(union) if union else None


@dataclass(frozen=True)
class PageAgreement:
    page_id: Hashable
    pairs: int
    text_f1: float | None
    type_agreement: float | None
    snippet_agreement: float | None
    metadata: Mapping[str, Mapping[str, Any]] | None = None  # field -> {agreement, pairs} (metadata_agreement)


def _pairs(page: AnnotatedPage, only: str | None) -> list[tuple[Said, Said]]:
    return [(a, b) for a, b in combinations(page.said, 2) if only is None or only in (a.author, b.author)]


def page_agreement(page: AnnotatedPage, only: str | None = None) -> PageAgreement:
    """One page's figures over its pairs (those with ``only`` when given)."""
    pairs = _pairs(page, only)
    if not pairs:
        return PageAgreement(page.page_id, 0, None, None, None)
    snippets = [j for a, b in pairs if (j := snippet_jaccard(a.snippets, b.snippets)) is not None]
    return PageAgreement(
        page.page_id,
        len(pairs),
        fmean(text_f1(a.text, b.text) for a, b in pairs),
        fmean(float(a.page_type == b.page_type) for a, b in pairs),
        fmean(snippets) if snippets else None,
        rates(pair_counts((a.article_metadata, b.article_metadata) for a, b in pairs)),
    )


def type_alpha(pages: Sequence[AnnotatedPage]) -> float | None:
    """Krippendorff's alpha (nominal) on the page type; None when undefined (one type only, or no page)."""
    page_types = sorted({s.page_type for page in pages for s in page.said})
    if len(page_types) < 2:
        return None
    coders = sorted({s.author for page in pages for s in page.said})
    data = np.full((len(coders), len(pages)), np.nan)
    for j, page in enumerate(pages):
        for said in page.said:
            data[coders.index(said.author), j] = page_types.index(said.page_type)
    return float(krippendorff.alpha(reliability_data=data, level_of_measurement="nominal"))


def spread(values: Sequence[float]) -> dict[str, float] | None:
    """min, quartiles and max of per-page figures (None without any)."""
    if not values:
        return None
    low, q1, median, q3, high = np.percentile(np.asarray(values, float), [0, 25, 50, 75, 100])
    return {"min": float(low), "q1": float(q1), "median": float(median), "q3": float(q3), "max": float(high)}


def _annotators(pages: Sequence[AnnotatedPage], only: str | None) -> dict[str, dict[str, Any]]:
    annotated: dict[str, int] = Counter()
    against_gold: dict[str, list[float]] = defaultdict(list)
    for page in pages:
        for said in page.said:
            if only is not None and said.author != only:
                continue
            annotated[said.author] += 1
            if page.gold is not None:
                against_gold[said.author].append(text_f1(said.text, page.gold))
    return {
        name: {"pages": annotated[name], "adjudicated": len(against_gold[name]),
               "f1_vs_gold": fmean(against_gold[name]) if against_gold[name] else None}
        for name in sorted(annotated)
    }


def summary(pages: Sequence[AnnotatedPage], only: str | None = None) -> dict[str, Any]:
    """The corpus figures of these pages (see the module's definitions), with the spread of the per-page
    text F1."""
    per_page = [page_agreement(page, only) for page in pages]
    counted = [p for p in per_page if p.pairs]
    pairs = sum(p.pairs for p in counted)
    snippet_pairs = [
        j for page in pages for a, b in _pairs(page, only) if (j := snippet_jaccard(a.snippets, b.snippets)) is not None
    ]
    page_f1 = [p.text_f1 for p in counted if p.text_f1 is not None]
    return {
        "pages": len(counted),
        "pairs": pairs,
        "text_f1": fmean(page_f1) if page_f1 else None,
        "type_agreement": sum(p.type_agreement * p.pairs for p in counted if p.type_agreement is not None) / pairs
        if pairs else None,
        "type_alpha": type_alpha([page for page, p in zip(pages, per_page) if p.pairs]),
        "snippet_agreement": fmean(snippet_pairs) if snippet_pairs else None,
        "snippet_pairs": len(snippet_pairs),
        "metadata": rates(pair_counts((a.article_metadata, b.article_metadata)
                                      for page in pages for a, b in _pairs(page, only))),
        "text_f1_spread": spread(page_f1),
        "annotators": _annotators(pages, only),
    }


def guideline_of(page: AnnotatedPage) -> str:
    """The guideline a page's annotations were made under: "forum v2" when all were saved under version 2
    of the forum guideline, "mixed: ..." naming each otherwise (a change of policy between them)."""
    said = sorted({f"{s.page_type} v{s.guideline_version}" if s.guideline_version is not None
                   else f"{s.page_type} (no version recorded)" for s in page.said})
    return said[0] if len(said) == 1 else "mixed: " + " · ".join(said)


def group_of(page: AnnotatedPage, by: str) -> list[str]:
    """The groups a page belongs to: its site, its type, each of its annotators, or the guideline its
    annotations were made under (`guideline_of`)."""
    if by == "site":
        return [page.site]
    if by == "type":
        return [page.page_type]
    if by == "annotator":
        return sorted({s.author for s in page.said})
    if by == "guideline":
        return [guideline_of(page)]
    raise ValueError(unknown_grouping(by))


def unknown_grouping(by: str) -> str:
    return f"--by must be one of {', '.join(GROUPINGS)}, not {by!r}"


def agreement(pages: Sequence[AnnotatedPage], by: str | None = None) -> dict[str, Any]:
    """``summary`` of every page, and with ``by`` one summary per group (by annotator: the pairs that
    include them). An unknown ``by`` is a ValueError, with pages or without."""
    if by is not None and by not in GROUPINGS:
        raise ValueError(unknown_grouping(by))
    result = summary(pages)
    if by is not None:
        groups: dict[str, list[AnnotatedPage]] = defaultdict(list)
        for page in pages:
            for group in group_of(page, by):
                groups[group].append(page)
        result["by"] = by
        result["groups"] = {
            group: summary(members, only=group if by == "annotator" else None)
            for group, members in sorted(groups.items())
        }
    return result


def distributions(pages: Sequence[AnnotatedPage], by: str | None = None) -> dict[str, list[float]]:
    """The per-page text F1 of every page ("all"), and with ``by`` of each group's pages (by annotator:
    over the pairs that include them)."""
    found = {"all": [f for page in pages if (f := page_agreement(page).text_f1) is not None]}
    if by is not None:
        for page in pages:
            for group in group_of(page, by):
                f1 = page_agreement(page, group if by == "annotator" else None).text_f1
                if f1 is not None:
                    found.setdefault(group, []).append(f1)
    return found


def annotator_noise(page_f1: Mapping[Hashable, float], pages: Iterable[Hashable]) -> float | None:
    """1 - the mean annotator text F1 of the double-annotated pages among ``pages``; None without any."""
    found = [page_f1[page] for page in pages if page in page_f1]
    return 1 - fmean(found) if found else None


def within_noise(difference: float | None, noise: float | None) -> bool | None:
    """Whether a difference of corpus F1 is smaller than the annotators' noise (None: unknown)."""
    if difference is None or noise is None:
        return None
    return abs(difference) < noise
