"""The best prefill (the site's best extractor once the site has enough gold, else the default, and why),
repeated boilerplate (found per site, left out of the prefill, listed for the page script), and the
pure parts of the annotation-effort benchmark (its edit distance, leave-one-out)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from sqlalchemy import select
from workbench import METRICS, add_gold, make_page, page_data, sign_in

from webapp.annotation.boilerplate import drop_lines, page_boilerplate, repeated_lines, site_boilerplate
from webapp.annotation.prefill import BEST, DEFAULT, NONE, choose, ranking
from webapp.corpus.site_names import UNKNOWN_SITE
from webapp.extractors.extraction_service import current_extractors
from webapp.extractors.registry import build_registry
from webapp.models import Extraction, Page, Site
from webapp.web.db import sessions

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from bench_annotation_effort import edit_chars, leave_one_out

GOLD = "The council approved the new bridge on Monday after a long debate.\nWork starts in spring."
POOR = "Home News Sport\nThe council approved the new bridge.\nSubscribe now"


def current_fingerprints(session) -> dict[str, str]:
    found = {e.name: e.fingerprint for e in current_extractors(session, build_registry())}
    session.rollback()
    return found


def page_with(session, fingerprints, texts: dict[str, str], host="news.example", html=None) -> Page:
    """A page of `host` whose current extractions (the registry's fingerprints) have these texts."""
    page = make_page(session, html=html or "<html><body><p>Hello</p></body></html>",
                     url=f"https://{host}/x", host=host)
    for name, text in texts.items():
        session.add(Extraction(page_id=page.id, extractor=name, fingerprint=fingerprints[name], text=text,
                               accepted=True))
    session.commit()
    return page


def gold_site(session, fingerprints, pages: int, host="news.example") -> None:
    """`pages` gold pages on which justext is exact and trafilatura poor."""
    for _ in range(pages):
        page = page_with(session, fingerprints, {"justext": GOLD, "trafilatura": POOR}, host)
        add_gold(session, page, text=GOLD, page_type="article", status="done", author="Ann")
        session.commit()


def test_the_default_prefills_until_the_site_has_enough_gold_then_the_best(app, client, session):
    fps = current_fingerprints(session)
    min_pages = app.config["LEADERBOARD_MIN_SITE_PAGES"]
    gold_site(session, fps, min_pages - 1)
    todo = page_with(session, fps, {"justext": "Justext text", "trafilatura": "Trafilatura text"}).id
    sign_in(client)

    data = page_data(client.get(f"/pages/{todo}"))
    assert data["editor"]["text"] == "Trafilatura text" and data["editor"]["prefilled_from"] == "trafilatura"
    assert data["prefill"]["basis"] == DEFAULT
    assert data["prefill"]["reason"] == (f"prefilled from trafilatura, the default: news.example has "
                                         f"{min_pages - 1} gold pages, fewer than {min_pages}")

    gold_site(session, fps, 1)  # the site reaches the minimum: the next view ranks it
    response = client.get(f"/pages/{todo}")
    data = page_data(response)
    assert data["editor"]["text"] == "Justext text" and data["editor"]["prefilled_from"] == "justext"
    assert data["prefill"]["basis"] == BEST and data["prefill"]["pages"] == min_pages
    assert data["prefill"]["reason"] == (f"prefilled from justext: best tokens F1 (1.00) on news.example "
                                         f"over {min_pages} gold pages")
    assert "Prefilled from justext: best tokens F1 (1.00) on news.example" in response.get_data(as_text=True)


def test_another_sites_gold_does_not_count(app, client, session):
    fps = current_fingerprints(session)
    gold_site(session, fps, app.config["LEADERBOARD_MIN_SITE_PAGES"], host="other.example")
    todo = page_with(session, fps, {"justext": "J", "trafilatura": "T"}).id
    sign_in(client)
    data = page_data(client.get(f"/pages/{todo}"))
    assert (data["prefill"]["extractor"], data["prefill"]["pages"]) == ("trafilatura", 0)


def test_pages_of_the_unknown_site_get_the_default_and_no_boilerplate(app, client, session):
    # pages imported without a URL share the "unknown" site: it is not a site to learn a best extractor
    # or repeated lines from
    fps = current_fingerprints(session)
    gold_site(session, fps, app.config["LEADERBOARD_MIN_SITE_PAGES"] + 1, host=UNKNOWN_SITE)
    text = "Home\nStory 1\nWe use cookies to improve your experience."
    ids = [page_with(session, fps, {"justext": "J", "trafilatura": text}, host=UNKNOWN_SITE,
                     html=SITE_PAGE.format(n=n)).id for n in range(4)]
    sign_in(client)
    data = page_data(client.get(f"/pages/{ids[1]}"))
    assert data["prefill"]["basis"] == DEFAULT and data["prefill"]["site"] is None
    assert data["prefill"]["reason"] == ("prefilled from trafilatura, the default: this page's site is unknown "
                                         "(it was imported with no URL or folder to name one)")
    assert data["boilerplate"] == [] and data["editor"]["text"] == text


def test_a_page_with_gold_is_not_prefilled(client, session):
    fps = current_fingerprints(session)
    page = page_with(session, fps, {"trafilatura": "T"})
    add_gold(session, page, text="Saved", page_type="article", status="done", author="Ann")
    session.commit()
    sign_in(client)
    data = page_data(client.get(f"/pages/{page.id}"))
    assert data["prefill"] is None and data["editor"]["text"] == "Saved"


def test_ranking_is_by_f1_then_name():
    tokens = METRICS["tokens"]
    exact = tokens.counts("a b c d", "a b c d")
    half = tokens.counts("a b", "a b c d")
    assert [name for name, _ in ranking(tokens, {"b": [exact], "a": [exact], "c": [half]})] == ["a", "b", "c"]
    assert ranking(tokens, {"a": []}) == []


@pytest.mark.parametrize(
    "ranked, pages, usable, expected",
    [
        ([("justext", 0.9)], 2, {"justext", "trafilatura"},
         (DEFAULT, "trafilatura", "prefilled from trafilatura, the default: news.example has 2 gold pages, "
                                  "fewer than 5")),
        ([("justext", 0.9)], 1, {"trafilatura"},
         (DEFAULT, "trafilatura", "prefilled from trafilatura, the default: news.example has 1 gold page, "
                                  "fewer than 5")),
        ([("justext", 0.912), ("trafilatura", 0.8)], 12, {"justext", "trafilatura"},
         (BEST, "justext", "prefilled from justext: best tokens F1 (0.91) on news.example over 12 gold pages")),
        ([("justext", 0.9), ("density", 0.85)], 12, {"density", "trafilatura"},
         (BEST, "density", "prefilled from density: best tokens F1 (0.85) on news.example over 12 gold pages "
                           "(justext, the best, has no text here)")),
        ([("justext", 0.9)], 12, {"trafilatura"},
         (DEFAULT, "trafilatura", "prefilled from trafilatura, the default: no extractor ranked on "
                                  "news.example has text for this page")),
        ([], 0, set(),
         (NONE, None, "not prefilled: the default, trafilatura, has no text for this page; news.example has "
                      "0 gold pages, fewer than 5")),
    ],
)
def test_the_reason_says_which_and_why(ranked, pages, usable, expected):
    chosen = choose(ranked, pages, "news.example", 5, "trafilatura", usable)
    assert (chosen.basis, chosen.extractor, chosen.reason) == expected


SITE_PAGE = """<html><body>
<nav><ul><li>Home</li><li>News</li><li>Sport</li></ul></nav>
<div class="cookie">We use cookies to improve your experience.</div>
<article><h1>Story {n}</h1><p>Paragraph one of story {n} is its own.</p><p>Shared quote.</p></article>
<footer><p>© 2024 News Example Ltd.</p></footer>
</body></html>"""


def test_repeated_lines_need_enough_pages_and_a_share_of_the_site():
    pages = [["Menu", "Story 1", "Footer"], ["Menu", "Story 2", "Footer"], ["Menu", "Story 3"],
             ["Story 4", "Related"], ["Story 5", "Related"]]
    assert repeated_lines(pages, min_pages=3, min_share=0.3) == {"Menu"}
    assert repeated_lines(pages, min_pages=2, min_share=0.3) == {"Menu", "Footer", "Related"}
    assert repeated_lines(pages, min_pages=2, min_share=0.5) == {"Menu"}
    assert repeated_lines(pages, min_pages=2, min_share=0.7) == set()
    assert repeated_lines([["A  b", "A b"], [" A b "], ["A b"]], 3, 0.3) == {"A b"}


def test_a_page_s_own_title_is_not_its_boilerplate():
    site = frozenset({"Menu", "Story 1", "Story 2", "The Site"})
    assert page_boilerplate(site, {"title": " Story  1 "}) == {"Menu", "Story 2", "The Site"}
    assert page_boilerplate(site, {"title": None}) == page_boilerplate(site, {}) == page_boilerplate(site, None) == site


def test_the_demo_marks_menus_footers_and_other_pages_titles_but_never_the_page_s_own_title(demo_app):
    """Every demo article's heading is also a link in the "most read" or "recent posts" box of its site's
    other pages, so it recurs on the whole site: boilerplate there, the gold's first line on its own page."""
    client = demo_app.test_client()
    sign_in(client)
    with demo_app.app_context():
        with sessions()() as session:
            pages = session.execute(select(Page.id, Page.facts, Site.host).join(Site).order_by(Page.id)).all()
    titles = {host: {facts["title"] for _, facts, h in pages if h == host} for _, _, host in pages}
    marked_titles = 0
    for page_id, facts, host in pages:
        boilerplate = set(page_data(client.get(f"/pages/{page_id}"))["boilerplate"])
        assert facts["title"] not in boilerplate, facts["title"]
        marked_titles += len(boilerplate & titles[host])
        if host == "garden-ledger.example":
            assert {"The Garden Ledger", "Recent posts", "Home"} <= boilerplate
    assert marked_titles >= 10  # the same titles stay marked on the other pages of their site


def test_boilerplate_is_found_on_a_multi_page_site_and_left_out_of_the_prefill(client, session):
    fps = current_fingerprints(session)
    ids = [
        page_with(session, fps, html=SITE_PAGE.format(n=n), texts={
            "trafilatura": f"Home\nNews\nStory {n}\nParagraph one of story {n} is its own.\n"
                           "We use cookies to improve your experience.\n© 2024  News Example Ltd."}).id
        for n in range(4)
    ]
    page_with(session, fps, host="elsewhere.example", html=SITE_PAGE.format(n=9), texts={"trafilatura": "x"})
    site_id = session.scalar(select(Site.id).where(Site.host == "news.example"))
    expected = {"Home", "News", "Sport", "We use cookies to improve your experience.", "© 2024 News Example Ltd."}
    # "Shared quote." is on every page too: a repeated line in the article is dropped as well
    assert site_boilerplate(session, site_id) == expected | {"Shared quote."}
    session.rollback()

    sign_in(client)
    data = page_data(client.get(f"/pages/{ids[1]}"))
    assert data["boilerplate"] == sorted(expected | {"Shared quote."})
    assert data["editor"]["text"] == "Story 1\nParagraph one of story 1 is its own."

    alone = page_data(client.get(f"/pages/{session.scalar(select(Page.id).order_by(Page.id.desc()))}"))
    assert alone["boilerplate"] == [] and alone["editor"]["text"] == "x"


def test_the_boilerplate_of_a_site_is_recomputed_after_an_import(client, session):
    fps = current_fingerprints(session)
    first = [page_with(session, fps, html=f"<body><p>Only {n}</p><p>Footer line</p></body>",
                       texts={"trafilatura": f"Only {n}\nFooter line"}).id for n in range(2)]
    sign_in(client)
    assert page_data(client.get(f"/pages/{first[0]}"))["boilerplate"] == []
    page_with(session, fps, html="<body><p>Only 3</p><p>Footer line</p></body>", texts={"trafilatura": "x"})
    data = page_data(client.get(f"/pages/{first[0]}"))
    assert data["boilerplate"] == ["Footer line"] and data["editor"]["text"] == "Only 0"


def test_drop_lines_counts_what_it_drops():
    assert drop_lines("a\n b \nc", frozenset({"b"})) == ("a\nc", 1)
    assert drop_lines("a\nb", frozenset()) == ("a\nb", 0)


def test_edit_chars_counts_inserted_and_deleted_characters():
    assert edit_chars("same\ntext", "same\n\n  text ") == 0
    assert edit_chars("menu\nbody", "body") == len("menu") + 1
    assert edit_chars("body", "body\nmore") == len("more") + 1
    assert edit_chars("one two three", "one 2 three") == len("two") + 1 + len("2") + 1
    assert edit_chars("", "gold") == 5 and edit_chars("junk", "") == 5


def test_leave_one_out_never_reads_the_pages_own_counts():
    tokens = METRICS["tokens"]
    exact, wrong = tokens.counts("a b c", "a b c"), tokens.counts("x y z", "a b c")
    aligned = [(1, {"A": exact, "B": wrong}), (2, {"A": wrong, "B": exact}), (3, {"A": wrong, "B": exact}),
               (4, {"A": exact, "B": wrong})]
    # with every page, A and B tie; without page 2 (or 3) A leads, without page 1 (or 4) B leads
    assert leave_one_out(tokens, aligned, ["A", "B"], 2) == (3, ranking(tokens, {"A": [exact, wrong, exact],
                                                                                 "B": [wrong, exact, wrong]}))
    assert leave_one_out(tokens, aligned, ["A", "B"], 2)[1][0][0] == "A"
    assert leave_one_out(tokens, aligned, ["A", "B"], 1)[1][0][0] == "B"
    assert leave_one_out(tokens, aligned, ["A", "B"], 99)[0] == 4


def test_pages_too_large_to_parse_quickly_are_left_out_of_the_sample(session, monkeypatch):
    from webapp.annotation import boilerplate

    fps = current_fingerprints(session)
    for n in range(3):
        page_with(session, fps, html=f"<body><p>Footer line</p><p>{'long ' * 20 * n}</p></body>", texts={})
    site_id = session.scalar(select(Site.id).where(Site.host == "news.example"))
    assert site_boilerplate(session, site_id) == {"Footer line"}
    monkeypatch.setattr(boilerplate, "MAX_PAGE_CHARS", 100)  # the two pages with a long paragraph are skipped
    assert site_boilerplate(session, site_id) == set()
    session.rollback()
