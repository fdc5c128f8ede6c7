"""site-rules: hand-written CSS rules per host, with trafilatura as the fallback.

options = {"rules": {host: {"body": css, "drop": [css, ...], "base": name or None}}}. The rule for
the URL's host is looked up by the exact (lower-case) host, then by the host without a leading "www.".

A rule without a base gives text of its own: the elements the body selector matches (minus those
nested in another match) lose what the drop selectors match inside them; their visible text, one block
per line, is the result, and their Markdown (kept_markdown.html_markdown, one element after another) is its
Markdown. A rule with a base (the learned rules of rule_learning.py) refines that registered extractor's
text and Markdown instead: it keeps the base's lines less those the page shows only outside the body's
elements or inside a drop's (rule_regions.Refinement), and falls back to the base's own output where
trafilatura would be the fallback of a rule without one. A fallback gives its extractor's text and Markdown.
The base's version is not part of site-rules' fingerprint: after an upgrade of the base, re-run site-rules
with `--force`.

metadata["path"] tells what happened:
- "rules": the rule's text (metadata["host"] names the rule used, metadata["base"] its base if any);
- "fallback": trafilatura's text and Markdown (the base's, for a rule with a base), metadata["reason"] one of
  "no rule", "body selector matched nothing", "under 200 characters";
- "failed": the rule raised (an invalid selector, a malformed rule); metadata["reason"] holds the
  error and the text and Markdown are trafilatura's.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from webapp.corpus.visible_text import block_lines, parse_html
from webapp.extractors.base import Extracted, Extractor, package_version
from webapp.extractors.blocks import BLOCKS_VERSION
from webapp.extractors.kept_markdown import MARKDOWN_VERSION, html_markdown
from webapp.extractors.rule_regions import outermost, refinement
from webapp.extractors.with_trafilatura import TRAFILATURA

MIN_RULE_CHARS = 200
SITE_RULES_NAME = "site-rules"
SITE_RULES_VERSION = "goldtext-site-rules 2"
"""Bump when a rule's output changes (2: the rule's Markdown, and the fallback's), so that stored extractions
are redone."""


def rule_for(rules: dict[str, dict], url: str | None) -> tuple[str, dict] | None:
    """(host key, rule) for the URL's host, trying the host as is, then without "www."."""
    host = urlsplit(url).hostname if url else None
    if not host:
        return None
    for key in (host, host.removeprefix("www.")):
        if key in rules:
            return key, rules[key]
    return None


def apply_rule(html: str, rule: dict) -> tuple[str, str] | None:
    """The rule's text and Markdown, or None when its body selector matches nothing."""
    bodies = outermost(parse_html(html).cssselect(rule["body"]))
    if not bodies:
        return None
    lines: list[str] = []
    blocks: list[str] = []
    for body in bodies:
        for selector in rule.get("drop", []):
            for element in body.cssselect(selector):
                if element is not body:
                    element.drop_tree()
        lines.extend(block_lines(body))
        body.tail = None  # the text after the element is not part of it
        blocks.append(html_markdown(body))
    return "\n".join(lines), "\n\n".join(filter(None, blocks))


def base_output(html: str, url: str | None, base: str | None) -> Extracted:
    """The output of the rule's base extractor (trafilatura for a rule without a base)."""
    if base is None:
        return TRAFILATURA(html, url)
    from webapp.extractors.registry import process_registry  # the registry lists site-rules itself

    if base == SITE_RULES_NAME:
        raise ValueError("a site rule cannot refine site-rules itself")
    return process_registry()[base](html, url)


def fallback(html: str, url: str | None, path: str, reason: str, base: str | None = None) -> Extracted:
    found = base_output(html, url, base)
    return Extracted(text=found.text, markdown=found.markdown, metadata={"path": path, "reason": reason})


def rule_output(html: str, url: str | None, rule: dict) -> tuple[str, str | None] | None:
    """The rule's text and Markdown: its own, or its base's refined (None when the body selector matches
    nothing; a base of text only gives no Markdown)."""
    if rule.get("base") is None:
        return apply_rule(html, rule)
    found = refinement(html, rule.get("body") or None, rule.get("drop", []))
    if found is None:
        return None
    base = base_output(html, url, rule["base"])
    return found.text(base.text), None if base.markdown is None else found.markdown(base.markdown)


def run_site_rules(html: str, url: str | None, rules: dict[str, dict]) -> Extracted:
    """The host's rule's text and Markdown when it yields 200+ characters, else trafilatura's."""
    found = rule_for(rules, url)
    if found is None:
        return fallback(html, url, "fallback", "no rule")
    host, rule = found
    base = rule.get("base")
    try:
        output = rule_output(html, url, rule)
    except Exception as error:  # user-written rules: any failure falls back, named in metadata
        return fallback(html, url, "failed", f"{type(error).__name__}: {error}")
    if output is None:
        return fallback(html, url, "fallback", "body selector matched nothing", base)
    text, markdown = output
    if len(text) < MIN_RULE_CHARS:
        return fallback(html, url, "fallback", f"under {MIN_RULE_CHARS} characters", base)
    return Extracted(text=text, markdown=markdown,
                     metadata={"path": "rules", "host": host, **({"base": base} if base else {})})


SITE_RULES = Extractor(
    name=SITE_RULES_NAME,
    version=", ".join(
        (SITE_RULES_VERSION, BLOCKS_VERSION, package_version("cssselect"), MARKDOWN_VERSION, TRAFILATURA.version)
    ),
    func=run_site_rules,
    options={"rules": {}},
    structure=True,
    description="per-host CSS rules (body, drop), on their own or refining a base extractor; "
    "trafilatura where no rule applies",
)
