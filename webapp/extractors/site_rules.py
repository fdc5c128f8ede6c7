"""site-rules: hand-written CSS rules per host, with trafilatura as the fallback.

options = {"rules": {host: {"body": css, "drop": [css, ...]}}}. The rule for the URL's host is
looked up by the exact (lower-case) host, then by the host without a leading "www.". The
elements the body selector matches (minus those nested in another match) lose what the drop
selectors match inside them; their visible text, one block per line, is the result.

metadata["path"] tells what happened:
- "rules": the rule's text (metadata["host"] names the rule used);
- "fallback": trafilatura's text, metadata["reason"] one of "no rule", "body selector matched
  nothing", "under 200 characters";
- "failed": the rule raised (an invalid selector, a malformed rule); metadata["reason"] holds the
  error and the text is trafilatura's.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from lxml.html import HtmlElement

from webapp.corpus.visible_text import block_lines, parse_html
from webapp.extractors.base import Extracted, Extractor, package_version
from webapp.extractors.blocks import BLOCKS_VERSION
from webapp.extractors.with_trafilatura import TRAFILATURA

MIN_RULE_CHARS = 200
SITE_RULES_VERSION = "goldtext-site-rules 1"


def rule_for(rules: dict[str, dict], url: str | None) -> tuple[str, dict] | None:
    """(host key, rule) for the URL's host, trying the host as is, then without "www."."""
    host = urlsplit(url).hostname if url else None
    if not host:
        return None
    for key in (host, host.removeprefix("www.")):
        if key in rules:
            return key, rules[key]
    return None


def outermost(elements: list[HtmlElement]) -> list[HtmlElement]:
    """The elements not nested inside another one of them, in document order."""
    chosen = set(elements)
    return [e for e in elements if not any(a in chosen for a in e.iterancestors())]


def apply_rule(html: str, rule: dict) -> str | None:
    """The rule's text, or None when its body selector matches nothing."""
    bodies = outermost(parse_html(html).cssselect(rule["body"]))
    if not bodies:
        return None
    lines: list[str] = []
    for body in bodies:
        for selector in rule.get("drop", []):
            for element in body.cssselect(selector):
                if element is not body:
                    element.drop_tree()
        lines.extend(block_lines(body))
    return "\n".join(lines)


def fallback(html: str, url: str | None, path: str, reason: str) -> Extracted:
    return Extracted(text=TRAFILATURA(html, url).text, metadata={"path": path, "reason": reason})


def run_site_rules(html: str, url: str | None, rules: dict[str, dict]) -> Extracted:
    """The host's rule's text when it yields 200+ characters, else trafilatura's."""
    found = rule_for(rules, url)
    if found is None:
        return fallback(html, url, "fallback", "no rule")
    host, rule = found
    try:
        text = apply_rule(html, rule)
    except Exception as error:  # user-written rules: any failure falls back, named in metadata
        return fallback(html, url, "failed", f"{type(error).__name__}: {error}")
    if text is None:
        return fallback(html, url, "fallback", "body selector matched nothing")
    if len(text) < MIN_RULE_CHARS:
        return fallback(html, url, "fallback", f"under {MIN_RULE_CHARS} characters")
    return Extracted(text=text, metadata={"path": "rules", "host": host})


SITE_RULES = Extractor(
    name="site-rules",
    version=", ".join(
        (SITE_RULES_VERSION, BLOCKS_VERSION, package_version("cssselect"), TRAFILATURA.version)
    ),
    func=run_site_rules,
    options={"rules": {}},
    description="per-host CSS rules (body, drop); trafilatura where no rule applies",
)
