"""The bundled demo corpus: index, gold files, encodings and site rules agree with the pages."""

import json
from collections import Counter
from pathlib import Path
from urllib.parse import urlsplit

import lxml.html
import pytest
from demo_fixtures import demo_app_on

from webapp.foundation.vocabulary import ARTICLE, DEFAULT_NO_CONTENT_TYPES, DEFAULT_TAXONOMY
from webapp.web.db import dispose

DEMO = Path(__file__).parents[2] / "webapp" / "demo_corpus"
PAGES = DEMO / "pages"
INDEX: dict[str, dict[str, str]] = json.loads((PAGES / "index.json").read_text(encoding="utf-8"))
RULES: dict[str, dict] = json.loads((DEMO / "rules.json").read_text(encoding="utf-8"))

WINDOWS_1252_PAGE = "seed-swap-cafe"
SHORT_POST = "ferry-notice"
ARTICLES = sorted(name for name, entry in INDEX.items() if entry["type"] == ARTICLE)
NON_ARTICLES = sorted(name for name in INDEX if name not in ARTICLES)

# The accept guard's default thresholds (webapp/extractors/guard.py).
MIN_CHARS = 500
LONG_LINE_CHARS = 150
MIN_LONG_LINES = 2

HIDDEN_XPATH = (
    "descendant-or-self::*[self::head or self::script or self::style or self::noscript or self::template]"
)


def collapse(text: str) -> str:
    """Whitespace runs (including non-breaking spaces) become one space; ends trimmed."""
    return " ".join(text.split())


def page_text(name: str) -> str:
    """The page's HTML as text: windows-1252 for the one undeclared page, UTF-8 (strict) for all others."""
    encoding = "windows-1252" if name == WINDOWS_1252_PAGE else "utf-8"
    return (PAGES / f"{name}.html").read_bytes().decode(encoding)


def parse(name: str) -> lxml.html.HtmlElement:
    """A fresh tree of the page (callers may modify it)."""
    return lxml.html.document_fromstring(page_text(name))


def visible_text(element: lxml.html.HtmlElement) -> str:
    """What a reader sees: text outside head/script/style/noscript/template, whitespace-collapsed.

    Removes the hidden elements from the given tree."""
    for hidden in element.xpath(HIDDEN_XPATH):
        hidden.drop_tree()
    return collapse(element.text_content())


def gold_lines(name: str) -> list[str]:
    """The page's gold text, one block per line."""
    return (PAGES / f"{name}.gold.txt").read_text(encoding="utf-8").splitlines()


def host(name: str) -> str:
    """The host of the page's URL in the index."""
    return urlsplit(INDEX[name]["url"]).hostname or ""


def test_index_lists_exactly_the_pages_in_the_folder() -> None:
    assert set(INDEX) == {path.stem for path in PAGES.glob("*.html")}
    gold_names = {path.name.removesuffix(".gold.txt") for path in PAGES.glob("*.gold.txt")}
    assert gold_names <= set(INDEX)


@pytest.mark.parametrize("name", sorted(INDEX))
def test_index_entry_has_a_known_page_type_and_an_https_url(name: str) -> None:
    entry = INDEX[name]
    assert entry["type"] in DEFAULT_TAXONOMY.page_types
    assert entry["url"].startswith("https://")
    assert host(name).endswith(".example")


@pytest.mark.parametrize("name", ARTICLES)
def test_article_has_gold(name: str) -> None:
    assert (PAGES / f"{name}.gold.txt").is_file()


@pytest.mark.parametrize("name", sorted(INDEX))
def test_a_page_has_gold_exactly_when_its_type_has_main_content(name: str) -> None:
    """The demo passes its own checks: a listing has its gold (type-mismatch flagged an empty one)."""
    has_content = INDEX[name]["type"] not in DEFAULT_NO_CONTENT_TYPES
    assert (PAGES / f"{name}.gold.txt").is_file() == has_content


def test_corpus_has_three_sites_of_at_least_four_pages_and_nine_articles() -> None:
    pages_per_site = Counter(host(name) for name in INDEX)
    assert len(pages_per_site) == 3
    assert min(pages_per_site.values()) >= 4
    assert len(ARTICLES) >= 9


def test_corpus_covers_every_type_without_main_content() -> None:
    assert {INDEX[name]["type"] for name in NON_ARTICLES} >= set(DEFAULT_NO_CONTENT_TYPES)


@pytest.mark.parametrize("name", ARTICLES)
def test_gold_file_is_clean_utf8_lines_ending_with_a_newline(name: str) -> None:
    raw = (PAGES / f"{name}.gold.txt").read_bytes()
    text = raw.decode("utf-8")
    assert text.endswith("\n") and not text.endswith("\n\n")
    assert all(line and line == collapse(line) for line in text.splitlines())


@pytest.mark.parametrize("name", ARTICLES)
def test_gold_starts_with_the_headline(name: str) -> None:
    headline = parse(name).xpath("//h1")[0]
    assert gold_lines(name)[0] == collapse(headline.text_content())


@pytest.mark.parametrize("name", ARTICLES)
def test_every_gold_line_appears_in_the_visible_text_in_order(name: str) -> None:
    text = visible_text(parse(name))
    position = 0
    for line in gold_lines(name):
        found = text.find(line, position)
        assert found >= 0, f"{name}: gold line not found after offset {position}: {line[:60]!r}"
        position = found + len(line)


@pytest.mark.parametrize("name", [name for name in ARTICLES if name != SHORT_POST])
def test_full_article_gold_passes_the_accept_guard(name: str) -> None:
    lines = gold_lines(name)
    assert len("\n".join(lines)) >= MIN_CHARS
    assert sum(len(line) >= LONG_LINE_CHARS for line in lines) >= MIN_LONG_LINES


def test_short_post_gold_is_under_the_guard_minimum() -> None:
    assert INDEX[SHORT_POST]["type"] == ARTICLE
    assert len("\n".join(gold_lines(SHORT_POST))) < MIN_CHARS


def test_windows_1252_page_is_not_utf8_and_declares_no_charset() -> None:
    raw = (PAGES / f"{WINDOWS_1252_PAGE}.html").read_bytes()
    with pytest.raises(UnicodeDecodeError):
        raw.decode("utf-8")
    assert b"charset" not in raw.lower()
    assert set("éü“”–") <= set(raw.decode("windows-1252"))


@pytest.mark.parametrize("name", sorted(INDEX))
def test_readme_describes_every_page(name: str) -> None:
    readme = (DEMO / "README.md").read_text(encoding="utf-8")
    assert f"\n| {name} | {host(name)} | {INDEX[name]['type']} | " in readme


def test_one_article_is_german() -> None:
    german = [name for name in ARTICLES if parse(name).get("lang") == "de"]
    assert german == ["steinbruch-buehne"]


def test_nighttrain_has_the_structure_the_extractor_tests_rely_on() -> None:
    root = parse("nighttrain")
    (ld_json,) = root.xpath("//script[@type='application/ld+json']/text()")
    ld = json.loads(ld_json)
    (story,) = root.xpath("//article[@class='story']")
    children = [child for child in story if isinstance(child.tag, str)]
    tags = [child.tag if child.tag != "p" else child.get("class", "p") for child in children]
    assert tags == ["h1", "byline", "p", "p", "div", "p", "p", "aside", "p"]
    assert children[4].get("class") == "ad-slot" and children[4].text.startswith("Advertisement")
    assert children[7].get("class") == "related" and len(children[7].xpath(".//li/a")) == 4
    headline, byline = (collapse(child.text_content()) for child in children[:2])
    paragraphs = [collapse(child.text_content()) for child in children[2:] if child.tag == "p"]
    assert all(len(p) >= 300 and "," in p for p in paragraphs)
    assert gold_lines("nighttrain") == [headline, byline, *paragraphs]
    assert (ld["@type"], ld["headline"]) == ("NewsArticle", headline)
    assert ld["author"]["name"] and ld["datePublished"]
    assert root.get("lang") == "en"
    assert root.xpath("//meta[@property='og:type']/@content") == ["article"]
    outside = {
        "//div[@class='cookie-banner']": 1,
        "//nav": 1,
        "//section[@class='comments']//div[@class='comment']": 3,
        "//aside[@class='sidebar most-read']//li/a": 5,
        "//form": 1,
        "//footer": 1,
    }
    for xpath, count in outside.items():
        found = root.xpath(xpath)
        assert len(found) == count, xpath
        assert not any(story in element.iterancestors() for element in found), xpath


def test_listing_has_twelve_teasers() -> None:
    teasers = parse("transit-front").xpath("//article[contains(@class, 'teaser')]//h2/a")
    assert len(teasers) == 12


def test_js_shell_has_an_empty_app_root_a_bundle_and_a_noscript_message() -> None:
    root = parse("live-departures")
    (app,) = root.xpath("//div[@id='app']")
    assert len(app) == 0 and not (app.text or "").strip()
    assert root.xpath("//script[contains(@src, 'departures')]")
    assert "JavaScript" in root.xpath("string(//noscript)")


def test_br_article_separates_its_gold_paragraphs_with_double_br() -> None:
    (body,) = parse("frost-dates").xpath("//div[@class='post-body']")
    pieces = [body.text, *(child.tail for child in body)]
    paragraphs = [collapse(piece) for piece in pieces if piece and piece.strip()]
    assert [child.tag for child in body] == ["br"] * (2 * (len(paragraphs) - 1))
    assert len(paragraphs) >= 4
    assert gold_lines("frost-dates")[2:] == paragraphs


def test_related_box_sits_between_the_second_and_third_paragraph() -> None:
    (story,) = parse("cycle-lanes").xpath("//article[@class='story']")
    (box,) = story.xpath("./div[@class='related-box']")
    plain_paragraphs_before = box.xpath("preceding-sibling::p[not(@class)]")
    assert len(plain_paragraphs_before) == 2
    assert box.xpath("following-sibling::p[not(@class)]")


def squeeze(text: str) -> str:
    """Text with all whitespace removed, to compare texts whose block boundaries differ."""
    return "".join(text.split())


@pytest.mark.parametrize(
    ("site", "name"),
    [(site, name) for site in sorted(RULES) for name in ARTICLES if host(name) == site],
)
def test_site_rules_yield_exactly_the_gold_text(site: str, name: str) -> None:
    rule = RULES[site]
    (body,) = parse(name).cssselect(rule["body"])
    for selector in rule["drop"]:
        for element in body.cssselect(selector):
            element.drop_tree()
    assert squeeze(visible_text(body)) == squeeze("".join(gold_lines(name)))


@pytest.mark.parametrize(
    ("site", "selector"),
    [(site, selector) for site in sorted(RULES) for selector in RULES[site]["drop"]],
)
def test_every_drop_selector_matches_inside_the_body_on_its_site(site: str, selector: str) -> None:
    pages = [parse(name) for name in INDEX if host(name) == site]
    bodies = [body for page in pages for body in page.cssselect(RULES[site]["body"])]
    assert any(body.cssselect(selector) for body in bodies)


def test_the_demo_passes_its_own_checks(demo_copy, tmp_path):
    """What a newcomer runs first after `goldtext demo`: every page passes every check, its metadata gold
    (title, authors, published, from each page's NAME.json) included."""
    app = demo_app_on(demo_copy, tmp_path / "instance")
    try:
        result = app.test_cli_runner().invoke(args=["check"])
    finally:
        dispose(app)
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[-1] == f"0 of {len(INDEX)} pages fail a check."
