"""The database side of a learned site rule (issue 24 §6): a site's gold pages with every candidate's
text, proven by results/rule_proof.py, and the proposal stored as the site's rule once accepted.

The candidates are the registered extractors as they stand now (site-rules excepted: a rule cannot
refine itself; the stored variants too, which site-rules cannot run as a base) that have an extraction
of every gold page of the site; an extraction that failed counts as an empty text, as
everywhere in the figures. Only the site's done gold with text counts. Nothing here commits.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from ..extractors.base import Extractor
from ..extractors.scored_output import scored, scored_html, with_scored, with_scored_document
from ..extractors.site_rules import SITE_RULES_NAME
from ..models import Extraction, Gold, Page, Site, SiteRule
from ..scoring import Metric
from .extractions import current_named
from .rule_proof import Proof, SitePage, prove

DONE = "done"


def site_pages(session: Session, host: str, named: Mapping[str, str]) -> tuple[list[SitePage], list[str]]:
    """(the site's done gold pages with their candidates' texts, the candidates every page has)."""
    rows = session.execute(
        with_scored_document(select(Page.id, scored_html, Gold.text).select_from(Page))  # what the outputs scored read
        .join(Site, Site.id == Page.site_id).join(Gold, Gold.page_id == Page.id)
        .where(Site.host == host, Gold.status == DONE, Gold.text != "").order_by(Page.id)
    ).all()
    by_fingerprint = {fingerprint: name for name, fingerprint in named.items()}
    texts: dict[int, dict[str, str | None]] = defaultdict(dict)
    for page_id, fingerprint, text, error in session.execute(
        with_scored(select(Extraction.page_id, Extraction.fingerprint, scored("text"), scored("error"))
                    .where(Extraction.page_id.in_([row[0] for row in rows]),
                           Extraction.fingerprint.in_(list(by_fingerprint))))
    ):
        texts[page_id][by_fingerprint[fingerprint]] = None if error is not None else text
    names = [name for name in named if all(name in texts[row[0]] for row in rows)]
    return [SitePage(page_id, html, gold, texts[page_id]) for page_id, html, gold in rows], names


def gold_sites(session: Session, min_pages: int) -> list[tuple[str, int]]:
    """(host, done gold pages with text) of the sites with at least `min_pages` of them, by host."""
    rows = session.execute(
        select(Site.host, func.count(Page.id)).join(Page, Page.site_id == Site.id).join(Gold, Gold.page_id == Page.id)
        .where(Gold.status == DONE, Gold.text != "").group_by(Site.host)
        .having(func.count(Page.id) >= min_pages).order_by(Site.host)
    )
    return [(host, count) for host, count in rows]


def site_proof(session: Session, registry: Mapping[str, Extractor], metric: Metric, host: str) -> Proof:
    """The site's learned rule and its leave-one-out figures against the site's best extractor."""
    named = {name: fp for name, fp in current_named(session, registry).items()
             if name in registry and name != SITE_RULES_NAME}
    pages, names = site_pages(session, host, named)
    return prove(metric, host, pages, names)


def store_rule(site: Site, body: str, drop: list[str], base: str | None, actor: str) -> SiteRule:
    """Set the site's rule (replacing any earlier one; base None: a hand-written rule), recording who."""
    if site.rule is None:
        site.rule = SiteRule(body=body, drop=drop, base=base)
    else:
        site.rule.body, site.rule.drop, site.rule.base = body, drop, base
    site.rule.updated_by = actor
    return site.rule
