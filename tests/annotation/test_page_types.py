"""Page types: the taxonomy is a setting that the one check, every menu, the API, imports, exports and the
guard follow; the types x extractors heatmap."""

from __future__ import annotations

import json

import pytest
from sqlalchemy import select
from workbench import add_gold, make_page, sign_in

from webapp import create_app
from webapp.annotation.gold import add_revision
from webapp.extractors.extraction_service import current_extractors
from webapp.extractors.registry import build_registry
from webapp.foundation.config import defaults, from_environment
from webapp.foundation.settings import settings_of
from webapp.foundation.vocabulary import DEFAULT_TAXONOMY, UnknownTerm, checked_page_type, taxonomy
from webapp.models import Extraction, Gold, GoldRevision
from webapp.results.site_figures import type_rows
from webapp.web.db import dispose

DEFAULT_TYPES = ["article", "forum", "product", "collection", "listing", "documentation", "service",
                 "js-shell", "wall", "error", "other"]
RECIPES = {"PAGE_TYPES": ["article", "recipe", "listing", "other"], "NO_CONTENT_TYPES": ["other"],
           "GUARD_ACCEPT_TYPES": ["article", "recipe"]}


@pytest.fixture
def recipes(tmp_path, database_url):
    """An app whose settings name other page types: recipe (to accept, like article) and no forum."""
    instance = tmp_path / "recipes"
    instance.mkdir()
    app = create_app({"TESTING": True, "INSTANCE_PATH": str(instance), "DATABASE_URL": database_url,
                      "SECRET_KEY": "test-secret", **RECIPES})
    yield app
    dispose(app)


def options(html: str, name: str) -> list[str]:
    """The values of the options of the select (or checkboxes) named `name`."""
    import re

    select_ = re.search(rf'<select (?:name|id)="{name}">(.*?)</select>', html, re.S)
    found = select_.group(1) if select_ else html
    return [v for v in re.findall(r'<option value="([^"]*)"', found) if v] if select_ else \
        re.findall(rf'name="{name}" value="([^"]*)"', found)


# --- the settings ---------------------------------------------------------------------------------


def test_the_default_taxonomy():
    assert list(DEFAULT_TAXONOMY.page_types) == DEFAULT_TYPES
    assert DEFAULT_TAXONOMY.no_content == {"js-shell", "wall", "error", "other"}
    assert DEFAULT_TAXONOMY.accept == {"article"}
    assert DEFAULT_TAXONOMY.labels["wall"] == "paywall or consent wall"
    assert DEFAULT_TAXONOMY.accepts(None) and DEFAULT_TAXONOMY.has_content(None)  # no type: an article
    assert not DEFAULT_TAXONOMY.has_content("error") and DEFAULT_TAXONOMY.has_content("forum")


@pytest.mark.parametrize(("settings", "message"), [
    ({"page_types": ["forum", "other"]}, "PAGE_TYPES must include 'article'"),
    ({"page_types": ["article", "Forum Threads"]}, "'Forum Threads' is not a type name"),
    ({"page_types": ["article", "forum", "forum"]}, "names a type twice"),
    ({"no_content": ["wall", "captcha"]}, "NO_CONTENT_TYPES names captcha, not in PAGE_TYPES"),
    ({"accept": ["article", "recipe"]}, "GUARD_ACCEPT_TYPES names recipe, not in PAGE_TYPES"),
])
def test_a_taxonomy_that_does_not_hold_together_is_refused_naming_the_setting(settings, message):
    given = {"page_types": DEFAULT_TYPES, "no_content": ["wall"], "accept": ["article"], **settings}
    with pytest.raises(ValueError, match=message):
        taxonomy(**given)


def test_an_app_with_a_wrong_taxonomy_does_not_start(tmp_path):
    with pytest.raises(ValueError, match="GUARD_ACCEPT_TYPES names recipe"):
        create_app({"TESTING": True, "INSTANCE_PATH": str(tmp_path), "SECRET_KEY": "x",
                    "GUARD_ACCEPT_TYPES": ["recipe"]})


def test_the_types_are_read_from_the_environment_comma_separated(monkeypatch, tmp_path):
    monkeypatch.setenv("GOLDTEXT_PAGE_TYPES", "article, recipe,other")
    monkeypatch.setenv("GOLDTEXT_NO_CONTENT_TYPES", "other")
    found = from_environment(defaults(str(tmp_path)))
    assert (found["PAGE_TYPES"], found["NO_CONTENT_TYPES"]) == (["article", "recipe", "other"], ["other"])


def test_the_check_takes_the_taxonomy_the_app_built_and_no_app_is_needed(recipes):
    assert checked_page_type("forum", DEFAULT_TAXONOMY) == "forum"
    configured = settings_of(recipes).taxonomy
    assert checked_page_type("recipe", configured) == "recipe"
    with pytest.raises(UnknownTerm, match=r"unknown page type 'forum' \(known: article, recipe, listing, other\)"):
        checked_page_type("forum", configured)


# --- menus, saves, imports and exports follow the settings ------------------------------------------


def test_every_menu_offers_the_default_types_with_their_labels(client, session):
    page = make_page(session)
    sign_in(client)
    for path, name in (("/", "type"), ("/leaderboard", "type"), (f"/pages/{page.id}", "type"), ("/exports", "type")):
        html = client.get(path).get_data(as_text=True)
        assert options(html, name) == DEFAULT_TYPES, path
    assert ">paywall or consent wall<" in client.get("/leaderboard").get_data(as_text=True)


def test_every_menu_and_save_follows_configured_types(recipes, session):
    client = recipes.test_client()
    page = make_page(session)
    sign_in(client)
    for path in ("/", "/leaderboard", f"/pages/{page.id}", "/exports"):
        assert options(client.get(path).get_data(as_text=True), "type") == RECIPES["PAGE_TYPES"], path
    token = sign_in(client)
    save = {"text": "Flour, water, salt.", "status": "done", "version": 0, "client_save_id": "s1"}
    headers = {"X-CSRF-Token": token}
    refused = client.post(f"/api/pages/{page.id}/gold", json={**save, "type": "forum"}, headers=headers)
    assert refused.status_code == 400 and "unknown page type 'forum'" in refused.get_data(as_text=True)
    saved = client.post(f"/api/pages/{page.id}/gold", json={**save, "type": "recipe"}, headers=headers)
    assert saved.status_code == 200, saved.get_data(as_text=True)
    assert session.scalars(select(Gold.page_type)).all() == ["recipe"]


def test_gold_of_a_type_the_settings_no_longer_name_is_shown_and_not_restored(recipes, session):
    page = make_page(session)
    add_revision(session, page, text="A thread.", page_type="forum", status="done", author="ann")
    add_revision(session, page, text="A thread.", page_type="forum", status="draft", author="ann")
    session.commit()
    page_id = page.id
    client = recipes.test_client()
    token = sign_in(client)
    html = client.get(f"/pages/{page_id}").get_data(as_text=True)
    assert options(html, "type") == [*RECIPES["PAGE_TYPES"], "forum"]
    assert 'value="forum" selected>forum (not in the configured page types)' in html
    first = session.scalars(select(GoldRevision.id).order_by(GoldRevision.id)).first()
    session.rollback()  # the write lock (SQLite) goes to the restore
    restored = client.post(f"/pages/{page_id}/history/{first}/restore", data={"csrf_token": token},
                           follow_redirects=True)
    assert "was not restored: unknown page type &#39;forum&#39;" in restored.get_data(as_text=True)
    session.expire_all()
    assert session.scalar(select(Gold.version)) == 2


def test_an_import_takes_the_configured_types_and_refuses_others(recipes, session, tmp_path):
    lines = tmp_path / "pages.jsonl"
    lines.write_text("\n".join(json.dumps({"html": f"<p>{page_type}</p>", "gold": "Text.", "type": page_type})
                               for page_type in ("recipe", "forum")))
    result = recipes.test_cli_runner().invoke(args=["import", str(lines)])
    assert result.exit_code == 0, result.output
    assert "1 imported, 0 duplicate, 1 rejected" in result.output
    assert "line 2: unknown page type 'forum'" in result.output
    assert session.scalars(select(Gold.page_type)).all() == ["recipe"]


def test_an_export_by_type_takes_the_configured_types(recipes, session, tmp_path):
    with recipes.app_context():  # a recipe is gold under these settings only
        add_revision(session, make_page(session), text="Flour.", page_type="recipe", status="done", author="ann")
    session.commit()
    runner = recipes.test_cli_runner()
    refused = runner.invoke(args=["export", "--format", "jsonl", "--out", str(tmp_path / "a"), "--type", "forum"])
    assert refused.exit_code == 2 and "unknown page type 'forum' in --type" in refused.output
    done = runner.invoke(args=["export", "--format", "jsonl", "--out", str(tmp_path / "b"), "--type", "recipe"])
    assert done.exit_code == 0, done.output
    [row] = [json.loads(line) for line in (tmp_path / "b" / "pages.jsonl").read_text().splitlines()]
    assert row["type"] == "recipe"


# --- the guard against the types to accept -----------------------------------------------------------


def guarded(session, types_verdicts: list[tuple[str, bool]]) -> None:
    """One page per (type, whether whole-page accepted it), with done gold of that type."""
    whole_page = current_extractors(session, build_registry(), ("whole-page",))[0].fingerprint
    for page_type, accepted in types_verdicts:
        page = make_page(session)
        add_revision(session, page, text="Text.", page_type=page_type, status="done", author="ann")
        session.add(Extraction(page_id=page.id, extractor="whole-page", fingerprint=whole_page, text="x",
                               accepted=accepted))
    session.commit()


def confusion(app) -> dict[str, int]:
    result = app.test_cli_runner().invoke(args=["guard", "--format", "json", "--extractor", "whole-page"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)["whole-page"]["confusion"]


def test_the_guard_is_judged_against_the_types_to_accept(app, recipes, session):
    with recipes.app_context():
        guarded(session, [("article", True), ("article", False), ("recipe", True), ("listing", True),
                          ("other", False), ("other", False)])
    # By default only articles are to accept (and recipe is counted as a type to reject)...
    assert confusion(app) == {"true_accept": 1, "false_reject": 1, "false_accept": 2, "true_reject": 2}
    # ...with GUARD_ACCEPT_TYPES = article, recipe the accepted recipe is a right call.
    assert confusion(recipes) == {"true_accept": 2, "false_reject": 1, "false_accept": 1, "true_reject": 2}
    html = recipes.test_client().get("/sites/guard").get_data(as_text=True)
    assert "Pages to accept: article, recipe;" in html


# --- the types x extractors heatmap ------------------------------------------------------------------


def test_type_rows_list_the_types_given_then_any_other_the_gold_has():
    by_type = {"groups": {"article": {"pages": 3, "extractors": {"x": {"f1": 0.5}, "y": {"f1": 0.95}},
                                      "tiers": {"best": "y", "separable": True}},
                          "recipe": {"pages": 1, "extractors": {"x": {"f1": 0.2}}}}}
    rows = type_rows(by_type, {"article": "article", "forum": "forum or discussion thread"}, 2)
    assert [(r["type"], r["label"], r["pages"], r["judged"], r["best"]) for r in rows] == [
        ("article", "article", 3, True, ["y"]), ("forum", "forum or discussion thread", 0, False, []),
        ("recipe", "recipe", 1, False, [])]
    assert rows[0]["heat"] == {"x": 5, "y": 9}


def test_the_sites_page_breaks_f1_down_by_page_type(client, session):
    current = {e.name: e.fingerprint for e in current_extractors(session, build_registry(), ("trafilatura", "density"))}
    for text in ("alpha beta", "alpha beta gamma delta"):
        page = make_page(session)
        for name, found in (("trafilatura", "alpha beta"), ("density", "alpha beta gamma delta")):
            session.add(Extraction(page_id=page.id, extractor=name, fingerprint=current[name], text=found,
                                   accepted=True))
        add_gold(session, page, text=text, page_type="article", status="done", author="ann")
    session.commit()
    types = {row["type"]: row for row in client.get("/api/sites").get_json()["types"]}
    assert list(types) == DEFAULT_TYPES[:7]  # the types with main content
    assert types["article"]["pages"] == 2
    assert types["article"]["f1"]["trafilatura"] == pytest.approx((1 + 2 / 3) / 2)  # macro: F1 1, then P 1 R 1/2
    assert types["forum"] == {"type": "forum", "label": "forum or discussion thread", "pages": 0,
                              "judged": False, "best": [], "f1": {}, "heat": {}}
    html = client.get("/sites").get_data(as_text=True)
    row = html[html.index('<tr data-type="article"'):]
    row = row[:row.index("</tr>")]
    assert 'href="/leaderboard/pages?type=article&amp;extractor=density"' in row
    assert client.get("/leaderboard/pages?type=article&extractor=density").status_code == 200


# The types x extractors heatmap's text contrast (WCAG 2) ----------


def _luminance(color: str) -> float:
    """WCAG 2 relative luminance of a #rrggbb colour."""
    def linear(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(int(color[i:i + 2], 16) / 255) for i in (1, 3, 5))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    high, low = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_heatmap_text_reaches_a_4_5_to_1_contrast():
    import re
    from pathlib import Path

    static = Path(__file__).resolve().parents[2] / "static" / "css"
    ink = re.search(r"--ink:\s*(#[0-9a-f]{6})", (static / "app.css").read_text()).group(1)
    css = (static / "leaderboard.css").read_text()
    heat = dict(re.findall(r"\.heat-(\d) \{ background: (#[0-9a-f]{6}); \}", css))
    assert sorted(heat) == [str(n) for n in range(10)]
    assert all(contrast(ink, bg) >= 4.5 for bg in heat.values()), heat
    heatmap_rules = [rule for rule in re.findall(r"[^{}]+\{[^}]*\}", css) if "heatmap" in rule]
    assert not any("opacity" in rule for rule in heatmap_rules), "faded cells lose their contrast"
    mark = re.search(r"\.drift-mark \{[^}]*background: (#[0-9a-f]{6}); color: (#[0-9a-f]{3,6})", css)
    foreground = mark.group(2) if len(mark.group(2)) == 7 else "#" + "".join(c * 2 for c in mark.group(2)[1:])
    assert contrast(mark.group(1), foreground) >= 4.5
