"""Candidates keep structure: the extractors that can give Markdown (trafilatura's own, html-to-markdown of
the main HTML the others keep) give it beside their text, the text unchanged; an extraction stores its
Markdown once, an extractor of text only its text escaped."""

from __future__ import annotations

import gzip
import re
from collections import Counter

import pytest
import trafilatura
from sqlalchemy import select
from workbench import make_page

from tests.corpora import CORPORA, WCXB
from webapp.extractors.blocks import join_lines
from webapp.extractors.extraction_service import store_all
from webapp.extractors.guard import GuardThresholds
from webapp.extractors.kept_markdown import tidy
from webapp.extractors.process_pool import Result
from webapp.extractors.registry import build_registry
from webapp.extractors.site_rules import run_site_rules
from webapp.extractors.with_trafilatura import run_trafilatura
from webapp.models import Extraction
from webapp.scoring.markdown_text import plain_text

DOC = """<html><head><title>Ferry guide</title></head><body><nav><a href="/">Home</a> <a href="/news">News</a></nav>
<article><h1>Harbour ferry guide</h1>
<p>The harbour ferry crosses every twenty minutes from the north quay, and the crossing takes nine minutes.</p>
<h2>Fares</h2><p>Tickets are sold on board and at the kiosk; a day return costs less than two singles.</p>
<ul><li>Single: two euros for a crossing in either direction</li><li>Day return: three euros, all day long</li></ul>
<table><tr><th>Day</th><th>First</th><th>Last</th></tr><tr><td>Weekdays</td><td>06:10</td><td>23:40</td></tr>
<tr><td>Sundays</td><td>08:00</td><td>22:00</td></tr></table>
<h2>Timetable data</h2><p>The timetable is published as JSON for anyone who wants to build on it.</p>
<pre><code class="language-json">{"first": "06:10",
 "last": "23:40"}</code></pre>
<p>Bicycles travel free outside the morning peak, and dogs on a lead are welcome on every crossing.</p>
</article><footer>Contact us</footer></body></html>"""


@pytest.mark.parametrize("name", ["trafilatura", "readability", "density"])
def test_an_extractor_of_html_keeps_headings_lists_tables_and_code(name):
    extracted = build_registry()[name](DOC, None)
    markdown = extracted.markdown
    assert markdown is not None
    assert "## Fares" in markdown, markdown
    assert "- Single: two euros" in markdown or "* Single: two euros" in markdown
    assert "| Weekdays | 06:10 | 23:40 |" in " ".join(markdown.split("  ")).replace("  ", " ")
    assert '"first": "06:10",' in markdown and "```" in markdown
    assert build_registry()[name].structure


def test_the_markdown_of_a_kept_element_ends_where_the_element_ends():
    """The text after the element kept (its tail in lxml) is the page's, not the element's: neither a site rule's
    nor density's Markdown carries it."""
    page = DOC.replace("</article><footer>", "</article>Cookie settings and sharing buttons<footer>")
    ruled = run_site_rules(page, "https://ferry.example/guide", {"ferry.example": {"body": "article"}})
    dense = build_registry()["density"](page, None)
    for extracted in (ruled, dense):
        assert extracted.markdown.rstrip().endswith("dogs on a lead are welcome on every crossing."), extracted.markdown
        assert "Cookie settings" not in extracted.markdown and "Cookie settings" not in extracted.text


def test_the_whole_page_s_markdown_starts_with_its_content_not_its_head():
    page = DOC.replace("<title>", '<meta name="description" content="All about the ferry"><title>')
    markdown = build_registry()["whole-page"](page, None).markdown
    assert markdown.startswith("# Harbour ferry guide"), markdown  # no front matter of <title> and <meta>
    assert "Ferry guide" not in markdown and "All about the ferry" not in markdown


def test_trafilatura_text_is_what_extract_returns():
    assert run_trafilatura(DOC, None).text == join_lines(
        (trafilatura.extract(DOC, include_comments=False) or "").splitlines())


@pytest.mark.slow
@pytest.mark.corpus(WCXB)
def test_trafilatura_text_is_unchanged_on_real_pages_and_its_markdown_reads_as_that_text():
    agreement = []
    for path in sorted((CORPORA / WCXB / "dev" / "html").glob("*.html.gz"))[:40]:
        html = gzip.decompress(path.read_bytes()).decode("utf-8", "replace")
        extracted = run_trafilatura(html, None)
        assert extracted.text == join_lines((trafilatura.extract(html, include_comments=False) or "").splitlines())
        said, read = Counter(extracted.text.split()), Counter(plain_text(extracted.markdown or "").split())
        total = sum(said.values()) + sum(read.values())
        agreement.append(2 * sum((said & read).values()) / total if total else 1.0)
    assert min(agreement) > 0.9 and sum(agreement) / len(agreement) > 0.98  # measured: 0.91 and 0.992 on 60


def test_tidy_keeps_list_indentation_and_fences_but_not_stray_indentation():
    assert tidy("            Brian\n\n\n\n  - nested\n```\n    code\n```") == "Brian\n\n  - nested\n```\n    code\n```"


def test_an_extraction_stores_its_markdown_once_and_text_only_is_escaped(session):
    page = make_page(session)
    session.commit()
    for name, markdown in (("trafilatura", "# Title\n\nBody"), ("justext", None)):
        store_all(session, [Result(key=(page.id, 10_000), extractor_name=name, fingerprint=f"{name}|1|{{}}",
                              text="Title\nBody" if markdown else "# not a heading", metadata={}, duration_ms=1.0,
                              error=None, incomplete=False, markdown=markdown)],
              GuardThresholds(1, 0, 1, 0.0))
    session.commit()
    stored = dict(session.execute(select(Extraction.extractor, Extraction.markdown)
                                  .where(Extraction.fingerprint.like("%|1|{}"))).all())
    assert stored["trafilatura"] == "# Title\n\nBody"
    assert stored["justext"] == "\\# not a heading" and plain_text(stored["justext"]) == "# not a heading"


def test_the_list_says_which_extractors_keep_structure(runner):
    lines = {line.split()[0]: line for line in runner.invoke(args=["extractors"]).output.splitlines()}
    assert " markdown " in lines["trafilatura"] and " text only " in lines["justext"]


def wcxb_page(file_id: str) -> str:
    return gzip.decompress((CORPORA / WCXB / "dev" / "html" / f"{file_id}.html.gz").read_bytes()).decode()


def structure_lines(markdown: str) -> dict[str, list[str]]:
    """The Markdown's headings, list items and table rows (whitespace runs as one space)."""
    lines = [re.sub(r"\s+", " ", line).strip() for line in markdown.splitlines()]
    return {"heading": [line for line in lines if re.match(r"#{1,6} ", line)],
            "item": [line for line in lines if re.match(r"(?:[-*+]|\d+\.) ", line)],
            "row": [line for line in lines if line.startswith("|")]}


MOVERS = "0057"
"""A WCXB article of headings, lists and tables (movebuddha.com's movers in New York)."""


@pytest.mark.corpus(WCXB)
@pytest.mark.parametrize("name, kept", [
    ("goose3", ("heading", "item")),  # goose3 removes tables (and headings of fewer than three stopwords) itself
    ("newspaper4k", ("heading", "item")),  # newspaper4k's cleaned HTML unwraps tables
    ("go-domdistiller", ("heading", "item", "row")),
])
def test_goose_newspaper_and_dom_distiller_give_the_structure_of_their_html_on_a_real_page(name, kept):
    extractor = build_registry()[name]
    if not extractor.available:
        pytest.skip(extractor.unavailable_reason)
    extracted = extractor(wcxb_page(MOVERS), None)
    found = structure_lines(extracted.markdown or "")
    assert extractor.structure
    assert "## Best movers for those moving locally in New York" in found["heading"]
    assert all(found[kind] for kind in kept), found
    if "row" in kept:
        assert "| Studio | $465 | $183 | 2 movers | 3 hours |" in found["row"]
    assert "• " not in extracted.markdown and "\\n" not in extracted.markdown  # goose3's marks for its text
    said, read = Counter(extracted.text.split()), Counter(plain_text(extracted.markdown).split())
    assert 2 * sum((said & read).values()) / (sum(said.values()) + sum(read.values())) > 0.98  # measured 0.987+


@pytest.mark.slow
@pytest.mark.corpus(WCXB)
def test_goose_and_newspaper_text_is_still_the_library_s_own():
    from goose3 import Goose
    from newspaper import Article
    from newspaper.configuration import Configuration

    html = wcxb_page(MOVERS)
    with Goose({"enable_image_fetching": False}) as goose:
        assert build_registry()["goose3"](html, None).text == join_lines(
            goose.extract(raw_html=html).cleaned_text.splitlines())
    config = Configuration()
    config.fetch_images = False
    article = Article("", config=config)
    article.download(input_html=html)
    article.parse()
    assert build_registry()["newspaper4k"](html, None).text == join_lines(article.text.splitlines())


def test_goose_s_line_breaks_and_bullets_come_back_as_structure():
    page = DOC.replace("nine minutes.</p>", "nine minutes.<br>It runs all night at weekends, the<br>timetable "
                                           "says, and on every public holiday of the year.</p>")
    extracted = build_registry()["goose3"](page, None)
    assert "nine minutes.\nIt runs all night at weekends, the\ntimetable says" in extracted.markdown
    assert "- Single: two euros" in extracted.markdown
    assert "• Single: two euros" in extracted.text  # its text as goose3 writes it


BROWSERSTACK = ("1766", "https://www.browserstack.com/guide/automation-testing-tutorial")
"""A WCXB documentation page with a comparison table."""


@pytest.mark.corpus(WCXB)
def test_a_site_rule_selecting_a_table_keeps_the_table():
    file_id, url = BROWSERSTACK
    extracted = run_site_rules(wcxb_page(file_id), url, {"www.browserstack.com": {"body": "table"}})
    assert extracted.metadata["path"] == "rules"
    rows = structure_lines(extracted.markdown or "")["row"]
    assert rows[0] == "| **Criteria** | **Manual Testing** | **Automation Testing** |"
    assert re.fullmatch(r"\| -+ \| -+ \| -+ \|", rows[1])
    assert rows[2].startswith("| **Accuracy** | Lower accuracy due to the higher possibility of human errors. |")
    assert extracted.text.startswith("Criteria Manual Testing Automation Testing\nAccuracy Lower accuracy")
    assert build_registry()["site-rules"].structure


def test_a_site_rule_s_fallback_gives_its_extractor_s_markdown():
    extracted = run_site_rules(DOC, "https://ferry.example/guide", {})
    assert extracted.metadata == {"path": "fallback", "reason": "no rule"}
    assert extracted.markdown == run_trafilatura(DOC, None).markdown and "## Fares" in extracted.markdown


def test_a_rule_refining_a_base_refines_its_markdown_as_its_text():
    rules = {"ferry.example": {"body": "article", "drop": ["table", "pre"], "base": "readability"}}
    extracted = run_site_rules(DOC, "https://ferry.example/guide", rules)
    assert extracted.metadata["path"] == "rules"
    assert "06:10" not in extracted.text and "06:10" not in extracted.markdown
    assert "## Fares" in extracted.markdown and "- Day return: three euros, all day long" in extracted.markdown
    assert "|" not in extracted.markdown  # no delimiter row left without its table
    assert plain_text(extracted.markdown).split("\n") == extracted.text.split("\n")
