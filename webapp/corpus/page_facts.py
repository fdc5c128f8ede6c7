"""Page facts recorded on import: what the page says about itself (og:type, JSON-LD @type,
<html lang>), the page type rs-trafilatura's classifier gives it (where rs-trafilatura is installed), and
trafilatura's metadata (title, author, date, sitename).

The date comes from htmldate's fast search (markup and URL), not its extensive free-text search: that
search costs most of an import's time and its extra finds are often guesses (a copyright year)."""

from __future__ import annotations

import json
from typing import Any

import lxml.html
import trafilatura
from lxml import etree


def jsonld_types(tree: Any) -> list[str]:
    """Every JSON-LD @type in the page, in document order, without duplicates."""
    found: list[str] = []

    def walk(node: Any) -> None:
        if isinstance(node, list):
            for item in node:
                walk(item)
        elif isinstance(node, dict):
            kind = node.get("@type")
            for name in kind if isinstance(kind, list) else [kind]:
                if isinstance(name, str) and name not in found:
                    found.append(name)
            for value in node.values():
                if isinstance(value, (dict, list)):
                    walk(value)

    for script in tree.xpath('//script[@type="application/ld+json"]'):
        try:
            walk(json.loads(script.text_content() or "null"))
        except ValueError:
            continue
    return found


def rs_trafilatura_type(html: str) -> dict[str, Any] | None:
    """{"type", "confidence"}: the type rs-trafilatura's classifier gives the page (article, forum, product,
    collection, listing, documentation or service), as its extractor runs by default (the page alone);
    None where rs-trafilatura is not installed or fails on the page."""
    try:
        import rs_trafilatura
    except ImportError:
        return None
    try:
        result = rs_trafilatura.extract(html)
    except BaseException as error:  # a Rust panic arrives as pyo3's PanicException, a BaseException
        if isinstance(error, (KeyboardInterrupt, SystemExit)):
            raise
        return None
    return {"type": result.page_type, "confidence": result.classification_confidence} if result.page_type else None


def page_facts(html: str, url: str | None) -> dict[str, Any]:
    facts: dict[str, Any] = {"og_type": None, "jsonld_types": [], "lang": None, "rs_trafilatura_type": None}
    try:
        tree = lxml.html.document_fromstring(html)
    except (etree.ParserError, ValueError):
        return facts
    og = tree.xpath('//meta[@property="og:type"]/@content')
    facts["og_type"] = og[0].strip() if og else None
    facts["jsonld_types"] = jsonld_types(tree)
    facts["lang"] = (tree.get("lang") or tree.get("xml:lang") or "").strip() or None
    facts["rs_trafilatura_type"] = rs_trafilatura_type(html)
    meta = trafilatura.extract_metadata(tree, default_url=url, extensive=False)
    for field in ("title", "author", "date", "sitename"):
        facts[field] = getattr(meta, field, None) if meta is not None else None
    return facts
