"""Accept a learned site rule (issue 24 §6): an admin takes the rule a site's gold pages teach as the
site's rule of the `site-rules` extractor, replacing any earlier one.

The proposal is learned and proven again from the gold as it stands (`learned_proof`, with a read-only
session: learning takes seconds on a site of a dozen pages, and no write lock is held meanwhile), and
what is stored is what the figures prove, never a rule sent by the browser. It is refused when it no
longer beats the site's best extractor leave-one-out (the gold changed since the editor showed it), when
the site is unknown, and to anyone but an admin. Audited as `rule.set`, with the figures. Never commits.
"""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..accounts.audit_actions import Action
from ..accounts.roles import ADMIN
from ..annotation.prefill import METRIC
from ..foundation.settings import Settings
from ..models import Site, SiteRule
from ..results.rule_proof import Proof
from ..results.rule_proposal import site_proof, store_rule
from .outcome import Actor, Refused, needs


def learned_proof(reading: Session, settings: Settings, host: str) -> Proof:
    """The site's learned rule and its figures, read with a read-only session."""
    return site_proof(reading, settings.registry, settings.metrics[METRIC], host)


@needs(ADMIN, "Only an admin accepts a learned site rule.")
def accept_learned_rule(session: Session, actor: Actor, host: str, proof: Proof) -> tuple[SiteRule, Proof]:
    """Store the site's learned rule (its `learned_proof`, just computed) when it beats its best extractor;
    Refused (403, 404, 409) otherwise."""
    site = session.scalars(select(Site).where(Site.host == host)).one_or_none()
    if site is None:
        raise Refused(404, f"No site {host!r}.")
    if proof.site != host:
        raise Refused(400, f"The proof is of {proof.site!r}, not of {host!r}.")
    if not proof.beats:
        raise Refused(409, f"No learned rule to accept for {host}: {proof.reason}.")
    rule = proof.stored_rule()
    stored = store_rule(site, rule["body"], rule["drop"], rule["base"], actor.name)
    actor.record(session, Action.RULE_SET, f"site {host}", {
        **rule, "learned": True, "learned_f1": proof.learned_f1, "best_f1": proof.best_f1, "pages": proof.pages,
    })
    return stored, proof
