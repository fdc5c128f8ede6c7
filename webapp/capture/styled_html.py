"""A page's requisites for its styled snapshot (the stylesheets and the images it names, relative to its
`<base>` or its URL), and the page rewritten to load only captured copies of them.

The rewriting: a stylesheet link whose sheet was captured points to its copy, any other `<link>` that loads
(a sheet not kept, a preload, an icon) is removed; each `<style>` element and `style` attribute has its
URLs rewritten (css_references.py); an image's `src` and `srcset` name captured copies or are removed; the
`<base>` element is removed (the frame's URLs are the app's). The frame's Content-Security-Policy is what
enforces it (webapp/web/security.py `styled_page_csp`); this makes the page look as it did within it.
"""

from __future__ import annotations

from urllib.parse import urljoin

import lxml.html
from lxml import etree

from .css_references import Target, declarations_references, rewritten_declarations, rewritten_stylesheet
from .css_references import stylesheet_references as sheet_references

IMAGE_ATTRIBUTES = ("src", "srcset")


def _document(html: str) -> etree._Element | None:
    try:
        return lxml.html.document_fromstring(html)
    except (etree.ParserError, ValueError):
        return None


def _base(root: etree._Element, url: str) -> str:
    found = root.find(".//base[@href]")
    return urljoin(url, found.get("href", "").strip()) if found is not None else url


def _is_sheet(link: etree._Element) -> bool:
    return "stylesheet" in (link.get("rel") or "").lower().split()


def _srcset(value: str) -> list[tuple[str, str]]:
    """A srcset's candidates as (URL, descriptor)."""
    found = []
    for candidate in value.split(","):
        parts = candidate.strip().split(None, 1)
        if parts:
            found.append((parts[0], parts[1] if len(parts) > 1 else ""))
    return found


def page_references(html: str, url: str) -> tuple[list[str], list[str]]:
    """(stylesheets, images and fonts) the page at `url` names, absolute, each once, in document order."""
    root = _document(html)
    if root is None:
        return [], []
    base = _base(root, url)
    sheets = [urljoin(base, link.get("href", "").strip()) for link in root.iter("link")
              if _is_sheet(link) and link.get("href", "").strip()]
    others: list[str] = []
    for style in root.iter("style"):
        others += sheet_references(style.text or "", base)
    for element in root.xpath("//*[@style]"):
        others += declarations_references(element.get("style", ""), base)
    for image in root.iter("img"):
        if image.get("src", "").strip():
            others.append(urljoin(base, image.get("src", "").strip()))
        others += [urljoin(base, ref) for ref, _ in _srcset(image.get("srcset", ""))]
    return list(dict.fromkeys(sheets)), list(dict.fromkeys(others))


def styled_document(html: str, url: str, target: Target) -> str:
    """The page at `url` loading only what `target` maps (the captured copies), as rewritten above."""
    root = _document(html)
    if root is None:
        return html
    base = _base(root, url)
    for element in list(root.iter("link", "base")):
        href = element.get("href", "").strip()
        kept = target(urljoin(base, href)) if element.tag == "link" and _is_sheet(element) and href else None
        if kept is None:
            element.drop_tree()
        else:
            element.attrib.clear()
            element.set("rel", "stylesheet")
            element.set("href", kept)
    for style in root.iter("style"):
        style.text = rewritten_stylesheet(style.text or "", base, target)
    for element in root.xpath("//*[@style]"):
        element.set("style", rewritten_declarations(element.get("style", ""), base, target))
    for image in root.xpath("//img | //source"):
        src = image.get("src", "").strip()
        kept = target(urljoin(base, src)) if src else None
        candidates = [(target(urljoin(base, ref)), descriptor) for ref, descriptor in _srcset(image.get("srcset", ""))]
        srcset = ", ".join(f"{served} {descriptor}".strip() for served, descriptor in candidates if served)
        for name in IMAGE_ATTRIBUTES:
            image.attrib.pop(name, None)
        if kept is not None:
            image.set("src", kept)
        if srcset:
            image.set("srcset", srcset)
    doctype = root.getroottree().docinfo.doctype
    return (f"{doctype}\n" if doctype else "") + lxml.html.tostring(root, encoding="unicode")
