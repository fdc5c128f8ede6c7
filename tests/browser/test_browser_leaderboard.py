"""The live leaderboard in Chromium: a gold save in one tab changes the row in another, without a reload."""

from __future__ import annotations

import hashlib

import pytest
from browser_fixtures import signed_in, until
from workbench import EAGER, NO_CONTENT, add_gold

from webapp.annotation.gold import add_revision
from webapp.extractors.extraction_service import current_extractors
from webapp.extractors.registry import build_registry
from webapp.models import Extraction, ImportBatch, Page, Site
from webapp.results.store import refresh_scores

pytestmark = pytest.mark.browser

F1 = "document.querySelector('tr[data-extractor=\"trafilatura\"] td[data-key=\"f1\"]').dataset.value"


def seed(session) -> int:
    """One gold page: trafilatura found half of it (tokens F1 2/3), density all of it."""
    fingerprints = {e.name: e.fingerprint for e in current_extractors(session, build_registry(),
                                                                       ("trafilatura", "density"))}
    batch, site = ImportBatch(source="tests", format="folder"), Site(host="news.example")
    raw = b"<p>alpha beta gamma delta</p>"
    page = Page(url="https://news.example/1", site=site, batch=batch, source_name="p.html", raw=raw,
                sha256=hashlib.sha256(raw).hexdigest(), encoding="utf-8", encoding_source="meta",
                html=raw.decode())
    session.add(page)
    session.flush()
    add_revision(session, page, text="alpha beta gamma delta", page_type="article", status="done", author="ann")
    for name, text in (("trafilatura", "alpha beta"), ("density", "alpha beta gamma delta")):
        session.add(Extraction(page_id=page.id, extractor=name, fingerprint=fingerprints[name], text=text,
                               accepted=True))
    session.flush()
    refresh_scores(session, EAGER, no_content=NO_CONTENT)
    session.commit()
    return page.id


def test_a_gold_save_in_one_tab_changes_the_leaderboard_in_another(session, live_server, context):
    page_id = seed(session)
    board = context.new_page()
    board.goto(f"{live_server}/leaderboard")
    assert float(board.evaluate(F1)) == pytest.approx(2 / 3)
    board.evaluate("window.notReloaded = true")
    until(board, "Number(document.getElementById('board').dataset.refreshes || 0) >= 1")

    editor = signed_in(context, live_server)
    editor.goto(f"{live_server}/pages/{page_id}")
    editor.fill("#editor", "alpha beta")
    editor.click("#save")
    until(editor, "document.getElementById('save-state').textContent.startsWith('Saved version 2')")

    until(board, f"Number({F1}) === 1")
    assert board.evaluate("window.notReloaded") is True
    assert float(board.evaluate(
        "document.querySelector('tr[data-extractor=\"density\"] td[data-key=\"f1\"]').dataset.value"
    )) == pytest.approx(2 / 3)


def test_sorting_survives_a_refresh(session, live_server, context):
    page_id = seed(session)
    board = context.new_page()
    board.goto(f"{live_server}/leaderboard")
    names = "[...document.querySelectorAll('#board tbody tr')].map((r) => r.dataset.extractor).join()"
    assert board.evaluate(names) == "density,trafilatura"  # by F1, best first
    board.click("th[data-key=extractor]")
    board.click("th[data-key=extractor]")
    assert board.evaluate(names) == "trafilatura,density"  # by name, descending
    with session.begin():
        add_gold(session, session.get(Page, page_id), text="alpha beta", page_type="article", status="done",
                     author="bob")
    until(board, f"Number({F1}) === 1")
    assert board.evaluate(names) == "trafilatura,density"


def test_the_page_types_heatmap_sits_beside_the_sites_one_and_stays_readable(session, live_server, context):
    seed(session)
    tab = context.new_page()
    tab.goto(f"{live_server}/sites")
    assert tab.locator("table.heatmap").count() == 2
    shown = tab.eval_on_selector_all("#types-heatmap tbody tr", "(rows) => rows.map((r) => r.dataset.type)")
    assert shown == ["article", "forum", "product", "collection", "listing", "documentation", "service"]
    article = "#types-heatmap tr[data-type=article]"
    assert float(tab.get_attribute(f"{article} td[data-key=trafilatura]", "data-value")) == pytest.approx(2 / 3)
    ratios = tab.eval_on_selector_all("#types-heatmap td.cell[class*=heat-]", """(cells) => cells.map((cell) => {
      const lum = (css) => { const [r, g, b] = css.match(/[\\d.]+/g).slice(0, 3).map(Number).map((v) => {
        v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
        return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
      const [a, b] = [lum(getComputedStyle(cell.querySelector('a')).color),
                      lum(getComputedStyle(cell).backgroundColor)].sort((x, y) => y - x);
      return (a + 0.05) / (b + 0.05);
    })""")
    assert len(ratios) == 2 and min(ratios) >= 4.5
    tab.click(f"{article} td[data-key=density] a")
    tab.wait_for_url("**/leaderboard/pages?**")
    assert "type=article" in tab.url and "extractor=density" in tab.url


# The head-to-head's Compare button keeps the chosen metric ----------


@pytest.fixture
def scored(session):
    from workbench import add_gold, make_page

    for n in range(3):
        page = make_page(session, url=f"https://news.example/{n}",
                         candidates={"trafilatura": "Alpha beta", "density": f"Alpha delta {n}"})
        add_gold(session, page, text="Alpha beta gamma", page_type="article", status="done", author="Ann")
    session.commit()


def test_head_to_heads_compare_button_uses_the_chosen_metric(scored, live_server, context):
    tab = context.new_page()
    tab.goto(f"{live_server}/leaderboard/compare?a=trafilatura&b=density&metric=tokens")
    tab.select_option("select[name=metric]", "shingles")
    tab.click("button:has-text('Compare')")
    tab.wait_for_selector("#summary")
    assert "metric=shingles" in tab.url
    assert "shingles" in tab.inner_text("#summary")
    assert "a=trafilatura" in tab.url and "b=density" in tab.url
