"""A learned site rule proven leave-one-out (issue 24 §6): is the rule the site's gold pages teach better
than the site's best extractor, on pages whose gold it never saw?

For each gold page of the site in turn (the held-out page), with only the other pages:
- the base is the site's best extractor on them (annotation/prefill.ranking: the prefill's choice, by
  the metric's F1 over those pages);
- the rule is what extractors/rule_learning learns from their gold;
- the learned text of the held-out page is the base's text refined by the rule (rule_regions.refined),
  the base's own text where the rule's body selector matches nothing on it.
The held-out pages' counts give two figures over the same pages: the learned rule's F1 and the site
best's (each page's best chosen, like its rule, without its gold). The proposal, the rule learned from
every gold page with the best extractor over all of them as its base, is offered only when the first
figure beats the second. Pure: the pages come in with their texts, nothing is read or stored.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ..annotation.prefill import ranking
from ..extractors.rule_learning import GoldPage, Learned, Profile, learn_from, profile
from ..extractors.rule_regions import refined
from ..scoring import Metric

LEARNED, BEST = "learned", "best"
MIN_PAGES = 3
"""A site needs this many gold pages: each held-out page's rule then learns from two at least."""


@dataclass(frozen=True)
class SitePage:
    """One gold page of a site: its HTML, its gold and each candidate extractor's text (None: errored)."""

    page_id: int
    html: str
    gold: str
    texts: Mapping[str, str | None]


@dataclass(frozen=True)
class Proof:
    """The leave-one-out figures of a site's learned rule against its best extractor, and the proposal."""

    site: str
    pages: int
    learned_f1: float | None
    best_f1: float | None
    rule: Learned | None  # learned from every gold page of the site (None: too few pages)
    base: str | None  # the site's best extractor over every gold page: the rule's base
    reason: str
    held_out: list[dict[str, Any]] = field(default_factory=list)  # per page: id, base, learned and best F1, counts

    @property
    def beats(self) -> bool:
        return (self.rule is not None and not self.rule.empty and self.learned_f1 is not None
                and self.best_f1 is not None and self.learned_f1 > self.best_f1)

    def stored_rule(self) -> dict[str, Any]:
        """The proposal as the rules editor stores it: {"body", "drop", "base"} ("body": the whole page)."""
        assert self.rule is not None
        return {"body": self.rule.body or "body", "drop": list(self.rule.drop), "base": self.base}


Learner = Callable[[Sequence[Profile]], Learned]


def best_of(metric: Metric, pages: Sequence[SitePage], names: Sequence[str]) -> str | None:
    """The extractor with the best F1 of the metric over the pages (the prefill's ranking)."""
    table = {name: [counts_of(metric, page.texts.get(name), page.gold) for page in pages] for name in names}
    ranked = ranking(metric, table)
    return ranked[0][0] if ranked else None


def counts_of(metric: Metric, text: str | None, gold: str) -> dict[str, Any]:
    return metric.counts(text, gold, errored=text is None)


def learned_text(page: SitePage, rule: Learned, base: str) -> str | None:
    """The base's text of the page refined by the rule (the base's own where the body matches nothing)."""
    text = page.texts.get(base)
    if text is None or rule.empty:
        return text
    found = refined(page.html, rule.body, rule.drop, text)
    return text if found is None else found


def prove(metric: Metric, site: str, pages: Sequence[SitePage], names: Sequence[str],
          learner: Learner = learn_from) -> Proof:
    """The site's proof (see the module's docstring); `learner` is given the held-out page's others only."""
    if len(pages) < MIN_PAGES:
        return Proof(site, len(pages), None, None, None, None,
                     f"{site} has {len(pages)} gold page{'s' if len(pages) != 1 else ''}, fewer than {MIN_PAGES}")
    profiles = [profile(GoldPage(page.html, page.gold)) for page in pages]
    table: dict[str, list[dict[str, Any]]] = {LEARNED: [], BEST: []}
    held_out = []
    for n, page in enumerate(pages):
        others = [p for i, p in enumerate(pages) if i != n]
        base = best_of(metric, others, names)
        if base is None:
            continue
        rule = learner([p for i, p in enumerate(profiles) if i != n])
        learned = counts_of(metric, learned_text(page, rule, base), page.gold)
        best = counts_of(metric, page.texts.get(base), page.gold)
        table[LEARNED].append(learned)
        table[BEST].append(best)
        held_out.append({"page": page.page_id, "base": base, LEARNED: f1_of(metric, learned),
                         BEST: f1_of(metric, best), "counts": {LEARNED: learned, BEST: best}})
    figures = dict(ranking(metric, table)) if held_out else {}
    rule = learner(profiles)
    proof = Proof(site, len(held_out), figures.get(LEARNED), figures.get(BEST), rule, best_of(metric, pages, names),
                  "", held_out)
    return replace(proof, reason=verdict(proof))


def f1_of(metric: Metric, counts: dict[str, Any]) -> float | None:
    found = ranking(metric, {"page": [counts]})
    return found[0][1] if found else None


def verdict(proof: Proof) -> str:
    if proof.rule is None or proof.rule.empty:
        return f"the gold pages of {proof.site} teach no rule"
    if proof.learned_f1 is None or proof.best_f1 is None:
        return f"no figure for {proof.site}: no extractor has text on its gold pages"
    figures = (f"the learned rule's F1 {proof.learned_f1:.3f} against the site best's {proof.best_f1:.3f}, "
               f"leave-one-out over {proof.pages} gold pages")
    return f"{'beats' if proof.beats else 'does not beat'}: {figures}"
