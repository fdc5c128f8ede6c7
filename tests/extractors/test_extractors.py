"""Built-in extractors, fingerprints and the registry (the block text they share: test_visible_text.py)."""

from __future__ import annotations

import dataclasses
import textwrap
from pathlib import Path

import pytest

from webapp.extractors.base import Extracted, Extractor
from webapp.extractors.justext_stoplists import stoplist_name
from webapp.extractors.registry import GROUP, METADATA_ONLY, UnknownExtractor, build_registry, resolve
from webapp.extractors.site_rules import SITE_RULES
from webapp.extractors.with_trafilatura import TRAFILATURA

DATA = Path(__file__).resolve().parents[1] / "data" / "extractors"
ARTICLE = (DATA / "article.html").read_text(encoding="utf-8")
GERMAN = (DATA / "german.html").read_text(encoding="utf-8")
ARTICLE_URL = "https://gazette.example/2024/lighthouse-almanac"

ARTICLE_PARAGRAPHS = [
    "For forty-one winters, Ezra Pendeen kept a handwritten almanac in the lamp room",
    "The almanac, which fills nineteen leather notebooks, was found last spring",
    "Archivists say the notebooks are more than a curiosity.",
    "His entries are brief but often funny.",
    "Pendeen's granddaughter, who still lives in the village,",
    "The archive will show a selection of the original notebooks in its reading room",
]
NAV_TEXT = "Gazette News Desk"
FOOTER_TEXT = ["Copyright Harbour Gazette", "Privacy policy of the Harbour Gazette"]

OPTIONAL_NAMES = ["resiliparse", "newspaper4k", "goose3", "html-text", "inscriptis", "magic-html", "readability-js",
                  "rs-trafilatura", "dom-smoothie", "defuddle", "go-trafilatura", "go-domdistiller"]
"""The extractors of the `extractors` extra, Node.js, the Go and Rust programs and magic-html's own Python:
registered everywhere, available where installed (or built)."""
BUILTIN_NAMES = [
    "trafilatura",
    "trafilatura-precision",
    "trafilatura-recall",
    "trafilatura-fast",
    "density",
    "readability",
    "justext",
    "boilerpy3",
    "whole-page",
    "site-rules",
    *OPTIONAL_NAMES,
    *METADATA_ONLY,
]
WHOLE_PAGE_BASELINES = ("whole-page", "html-text", "inscriptis")
ARTICLE_EXTRACTORS = [name for name in BUILTIN_NAMES if name not in WHOLE_PAGE_BASELINES + METADATA_ONLY]


def starting_lines(text: str) -> list[str]:
    """Which of the article's paragraphs begin a line of the text."""
    lines = text.splitlines()
    return [p for p in ARTICLE_PARAGRAPHS if any(line.startswith(p) for line in lines)]


@pytest.mark.parametrize("name", ARTICLE_EXTRACTORS)
def test_builtin_returns_the_article_paragraphs_without_nav_or_footer(name):
    extractor = build_registry()[name]
    if not extractor.available:
        pytest.skip(extractor.unavailable_reason)
    extracted = extractor(ARTICLE, ARTICLE_URL)
    assert starting_lines(extracted.text) == ARTICLE_PARAGRAPHS
    assert NAV_TEXT not in extracted.text
    assert not [footer for footer in FOOTER_TEXT if footer in extracted.text]


def test_whole_page_keeps_nav_and_footer_but_not_head_or_scripts():
    text = build_registry()["whole-page"](ARTICLE).text
    assert starting_lines(text) == ARTICLE_PARAGRAPHS
    assert NAV_TEXT in text.splitlines()
    assert all(footer in text for footer in FOOTER_TEXT)
    assert "Almanac | Harbour Gazette" not in text  # the <title>
    assert "tracking" not in text and "font-family" not in text


def test_extractor_must_return_extracted():
    broken = Extractor("broken", "0", str.strip, {}, "returns a str")
    with pytest.raises(TypeError, match="'broken' returned str, not Extracted"):
        broken("<p>x</p>")


def test_fingerprint_is_canonical_over_option_order():
    one = dataclasses.replace(TRAFILATURA, options={"favor_precision": True, "fast": False})
    two = dataclasses.replace(TRAFILATURA, options={"fast": False, "favor_precision": True})
    assert one.fingerprint == two.fingerprint
    assert one.fingerprint == f'trafilatura|{TRAFILATURA.version}|{{"fast":false,"favor_precision":true}}'


def test_fingerprint_hashes_long_options_and_changes_with_them():
    drop = [".ad-slot", ".share-tools", "figure", "aside.related"]
    with_rules = site_rules({"news.example": {"body": "article .story-body", "drop": drop}})
    with_more_rules = site_rules({"news.example": {"body": "article .story-body", "drop": [*drop, ".nl"]}})
    prefix = f"site-rules|{SITE_RULES.version}|sha256:"
    assert with_rules.fingerprint.startswith(prefix)
    assert len(with_rules.fingerprint) == len(prefix) + 16
    assert len({SITE_RULES.fingerprint, with_rules.fingerprint, with_more_rules.fingerprint}) == 3


# ---- justext -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("opening", "stoplist"),
    [
        ('<html lang="de">', "German"),
        ("<html lang=de-AT>", "German"),
        ('<HTML class="no-js" LANG="pt-BR">', "Portuguese"),
        ('<html xml:lang="nb" xmlns="http://www.w3.org/1999/xhtml">', "Norwegian_Bokmal"),
        ('<html lang="ast">', "Asturian"),
        ('<html lang="xx">', "English"),
        ('<html data-lang="fr">', "English"),
        ("<html>", "English"),
    ],
)
def test_stoplist_from_html_lang(opening, stoplist):
    assert stoplist_name(f"<!DOCTYPE html>{opening}<body><p>x</p></body></html>") == stoplist


def test_justext_uses_german_stoplist_for_german_page():
    extracted = build_registry()["justext"](GERMAN)
    assert extracted.metadata == {"stoplist": "German"}
    assert "Der Kapitän sagte, dass das Schiff nun einen neuen Motor habe" in extracted.text
    assert "Impressum" not in extracted.text
    english = GERMAN.replace('lang="de-AT"', 'lang="en"')
    assert build_registry()["justext"](english).text == ""  # the stoplist is what keeps it


# ---- site-rules ----------------------------------------------------------------------------

RULE_PAGE = textwrap.dedent(
    """\
    <html><body>
      <nav>Home | Sections</nav>
      <div class="story">
        <p>%s</p>
        <div class="share">Share this on every network</div>
        <p>Second paragraph of the story.</p>
      </div>
    </body></html>
    """
)
LONG_PARAGRAPH = "The harbour master counted " + "gulls and ferries, " * 12 + "then went home."
SHORT_PARAGRAPH = "Too short for a rule."


def site_rules(rules):
    return dataclasses.replace(SITE_RULES, options={"rules": rules})


@pytest.mark.parametrize("host", ["harbour.example", "www.harbour.example"])
def test_site_rule_hit_selects_body_and_drops(host):
    extractor = site_rules({host: {"body": ".story", "drop": [".share"]}})
    extracted = extractor(RULE_PAGE % LONG_PARAGRAPH, "https://www.harbour.example/news/1")
    assert extracted.text == f"{LONG_PARAGRAPH}\nSecond paragraph of the story."
    assert extracted.metadata == {"path": "rules", "host": host}


@pytest.mark.parametrize(
    ("rules", "url", "paragraph", "path", "reason"),
    [
        ({}, "https://harbour.example/a", LONG_PARAGRAPH, "fallback", "no rule"),
        ({"harbour.example": {"body": ".story"}}, None, LONG_PARAGRAPH, "fallback", "no rule"),
        (
            {"other.example": {"body": ".story"}},
            "https://harbour.example/a",
            LONG_PARAGRAPH,
            "fallback",
            "no rule",
        ),
        (
            {"harbour.example": {"body": "article.missing"}},
            "https://harbour.example/a",
            LONG_PARAGRAPH,
            "fallback",
            "body selector matched nothing",
        ),
        (
            {"harbour.example": {"body": ".story", "drop": [".share"]}},
            "https://harbour.example/a",
            SHORT_PARAGRAPH,
            "fallback",
            "under 200 characters",
        ),
    ],
)
def test_site_rules_fallback_reasons(rules, url, paragraph, path, reason):
    page = RULE_PAGE % paragraph
    extracted = site_rules(rules)(page, url)
    assert extracted.metadata == {"path": path, "reason": reason}
    assert extracted.text == TRAFILATURA(page, url).text


def test_site_rules_failed_rule_reports_error_and_falls_back():
    extractor = site_rules({"harbour.example": {"body": ".story[", "drop": []}})
    extracted = extractor(ARTICLE, "https://harbour.example/a")
    assert extracted.metadata["path"] == "failed"
    assert extracted.metadata["reason"].startswith("SelectorSyntaxError: ")
    assert starting_lines(extracted.text) == ARTICLE_PARAGRAPHS


def test_site_rules_rule_of_exactly_200_characters_is_used():
    paragraph = "x" * 200
    extracted = site_rules({"harbour.example": {"body": "p"}})(f"<p>{paragraph}</p>", "http://harbour.example/")
    assert extracted.metadata["path"] == "rules"
    assert extracted.text == paragraph


# ---- registry ------------------------------------------------------------------------------

PLUGIN = textwrap.dedent(
    """\
    from webapp.extractors.base import Extracted, Extractor

    def shout(html, url, suffix):
        return Extracted(text=html.upper() + suffix, metadata={})

    SHOUT = Extractor("shout", "shout 1.0", shout, {"suffix": "!"}, "upper-cases the page")
    TWIN = Extractor("density", "fake 1", shout, {"suffix": ""}, "takes a built-in's name")
    NOT_AN_EXTRACTOR = "just a string"
    """
)


def test_registry_holds_the_builtins_in_a_new_dict_each_call():
    first, second = build_registry(), build_registry()
    assert list(first) == BUILTIN_NAMES
    assert first is not second
    del first["density"]
    assert "density" in build_registry()


def test_third_party_entry_point_is_registered(plugin_dist):
    plugin_dist(PLUGIN, GROUP, ["shout = goldtext_fake_plugin:SHOUT"])
    registry = build_registry()
    assert list(registry) == [*BUILTIN_NAMES, "shout"]
    assert registry["shout"]("<p>hi</p>") == Extracted("<P>HI</P>!", {})


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (
            "gone = goldtext_no_such_module:THING",
            r"'gone' \(goldtext_no_such_module:THING\) is broken: ModuleNotFoundError",
        ),
        ("text = goldtext_fake_plugin:NOT_AN_EXTRACTOR", r"'text' .* is not an Extractor but str"),
        ("dup = goldtext_fake_plugin:TWIN", r"'dup' .* ignored: 'density' is already registered"),
    ],
)
def test_broken_entry_point_warns_and_the_rest_still_load(plugin_dist, line, message):
    plugin_dist(PLUGIN, GROUP, [line, "shout = goldtext_fake_plugin:SHOUT"])
    with pytest.warns(RuntimeWarning, match=message):
        registry = build_registry()
    assert list(registry) == [*BUILTIN_NAMES, "shout"]
    assert registry["density"].version != "fake 1"


def test_resolve_returns_extractors_in_the_order_asked():
    registry = build_registry()
    assert [e.name for e in resolve(registry, ["justext", "density"])] == ["justext", "density"]


def test_resolve_unknown_name_lists_the_known_ones():
    registry = build_registry()
    with pytest.raises(UnknownExtractor) as caught:
        resolve(registry, ["density", "goose"])
    assert isinstance(caught.value, ValueError)
    message = str(caught.value)
    assert message.startswith("unknown extractor: goose (known: ")
    assert all(name in message for name in BUILTIN_NAMES)
