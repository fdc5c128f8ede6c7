"""Set or delete a site's rule of the site-rules extractor by hand: `goldtext rules set|delete`
(cli/extract_commands.py) and the demo's rules (cli/demo.py). A learned rule is accepted by
usecases/accept_rule.py.

The rules: only an admin sets or deletes a rule (403); every selector is valid CSS (400 naming it); a
rule's base is an extractor a rule can refine (400: not site-rules itself, not unknown); a rule to delete
exists (404). The site is made if no page named it yet. The change is audited (`rule.set`, `rule.delete`);
the face commits."""

from __future__ import annotations

from collections.abc import Sequence

from cssselect import GenericTranslator, SelectorError
from sqlalchemy import select
from sqlalchemy.orm import Session

from ..accounts.audit_actions import Action
from ..accounts.roles import ADMIN
from ..corpus.site_rows import site_named
from ..extractors.site_rules import SITE_RULES_NAME
from ..foundation.settings import Settings
from ..models import Site, SiteRule
from ..results.rule_proposal import store_rule
from .outcome import Actor, Refused, needs

ONLY_ADMINS = "Only an admin sets or deletes a site rule."


def checked_selectors(selectors: Sequence[str]) -> None:
    """Refused (400) naming the first selector that is not valid CSS."""
    for selector in selectors:
        try:
            GenericTranslator().css_to_xpath(selector)
        except SelectorError as error:
            raise Refused(400, f"invalid CSS selector {selector!r}: {error}") from None


@needs(ADMIN, ONLY_ADMINS)
def set_site_rule(session: Session, settings: Settings, actor: Actor, host: str, body: str,
                  drop: Sequence[str] = (), base: str | None = None) -> SiteRule:
    """The host's rule (replacing any earlier one), recording who changed it."""
    checked_selectors([body, *drop])
    if base is not None and (base == SITE_RULES_NAME or base not in settings.registry):
        raise Refused(400, f"{base!r} is not an extractor a rule can refine")
    site = site_named(session, host.lower())
    rule = store_rule(site, body, list(drop), base, actor.name)
    actor.record(session, Action.RULE_SET, f"site {site.host}", {"body": body, "drop": list(drop), "base": base})
    return rule


@needs(ADMIN, ONLY_ADMINS)
def delete_site_rule(session: Session, actor: Actor, host: str) -> None:
    """Remove the host's rule."""
    site = session.scalars(select(Site).where(Site.host == host.lower())).one_or_none()
    if site is None or site.rule is None:
        raise Refused(404, f"no rule for {host}")
    session.delete(site.rule)
    actor.record(session, Action.RULE_DELETE, f"site {site.host}")
