"""Learned site rules: what the learner takes from a site's gold pages, its leave-one-out
proof against the site's best extractor, the site-rules extractor refining a base with it, and the rules
editor that offers it only where it beats."""

from __future__ import annotations

from collections import defaultdict

import pytest
from corpora import CORPORA
from learned_sites import learned_site, story, whole_page
from sqlalchemy import select
from workbench import METRICS, add_account, csrf, log_in

from webapp.corpus.decoding import decode
from webapp.corpus.readers import iter_documents
from webapp.corpus.site_names import host_of
from webapp.extractors.registry import build_registry
from webapp.extractors.rule_learning import GoldPage, learn, learn_from
from webapp.extractors.site_rules import run_site_rules
from webapp.models import AuditEvent, Site, SiteRule
from webapp.results.rule_proof import SitePage, learned_text, prove

TOKENS = METRICS["tokens"]
SITES = "wcxb-dev-sites"
def hand_made(pages: int = 4) -> list[GoldPage]:
    return [GoldPage(*story(n)) for n in range(pages)]


def test_a_block_every_gold_leaves_out_becomes_a_drop_selector():
    rule = learn(hand_made())
    assert {"aside.related", "nav.menu", "footer.foot"} <= set(rule.drop)
    assert not {"article.post", "div#main"} & set(rule.drop)  # they hold the gold


def test_a_block_that_one_gold_keeps_is_not_dropped():
    pages = hand_made()
    html, gold = story(9)
    pages.append(GoldPage(html, gold + "\nRead also: story 10 of the quay and its gulls"))
    assert "aside.related" not in learn(pages).drop


def test_the_container_that_always_holds_the_gold_becomes_the_body():
    assert learn(hand_made()).body == "article.post"  # div#main holds it too, with more besides


def test_no_body_when_the_gold_is_not_always_in_one_container():
    pages = hand_made(3)
    html, gold = story(7)
    pages.append(GoldPage(html.replace("class='post'", "class='feature'"), gold))
    assert learn(pages).body != "article.post"


def test_leave_one_out_never_lets_a_page_learn_from_its_own_gold():
    pages = [SitePage(n, page.html, page.gold, {"whole-page": whole_page(page.html)})
             for n, page in enumerate(hand_made(5))]
    seen: list[list[str]] = []

    def spy(profiles):
        seen.append([profile.page.gold for profile in profiles])
        return learn_from(profiles)

    proof = prove(TOKENS, "quay.example", pages, ["whole-page"], learner=spy)
    held_out, final = seen[:-1], seen[-1]
    assert len(held_out) == len(pages) == proof.pages
    for page, golds in zip(pages, held_out):
        assert page.gold not in golds and len(golds) == len(pages) - 1
    assert sorted(final) == sorted(page.gold for page in pages)  # the proposal itself learns from them all


def test_the_proof_scores_the_refined_base_against_the_site_best_on_held_out_pages():
    pages = [SitePage(n, page.html, page.gold, {"whole-page": whole_page(page.html)})
             for n, page in enumerate(hand_made(4))]
    proof = prove(TOKENS, "quay.example", pages, ["whole-page"])
    assert proof.beats and proof.learned_f1 == pytest.approx(1.0) and proof.best_f1 < 0.9  # menu, box, footer
    assert proof.stored_rule() == {"body": "article.post", "drop": list(proof.rule.drop), "base": "whole-page"}
    exact = [SitePage(p.page_id, p.html, p.gold, {"whole-page": p.gold}) for p in pages]
    assert not prove(TOKENS, "quay.example", exact, ["whole-page"]).beats  # nothing beats F1 1
    assert prove(TOKENS, "quay.example", pages[:2], ["whole-page"]).reason.endswith("fewer than 3")


def test_site_rules_refines_its_base_with_a_learned_rule():
    html, gold = story(3)
    rules = {"quay.example": {"body": "article.post", "drop": ["aside.related"], "base": "whole-page"}}
    result = run_site_rules(html, "https://quay.example/3", rules)
    assert result.metadata == {"path": "rules", "host": "quay.example", "base": "whole-page"}
    assert result.text.split("\n") == gold.split("\n")
    holding = {"quay.example": {**rules["quay.example"], "drop": ["div#main", "aside.related"]}}
    assert run_site_rules(html, "https://quay.example/3", holding).text == result.text  # a drop spares the body
    missing = {"quay.example": {**rules["quay.example"], "body": "main.nowhere"}}
    fallen = run_site_rules(html, "https://quay.example/3", missing)
    assert fallen.metadata["path"] == "fallback" and fallen.text == whole_page(html)


@pytest.mark.slow
@pytest.mark.corpus(SITES)
def test_learned_rules_on_the_shared_corpus_beat_the_site_best_where_offered():
    names = ["trafilatura", "resiliparse", "readability", "whole-page"]
    registry = build_registry()
    by_site: dict[str, list[SitePage]] = defaultdict(list)
    for n, document in enumerate(iter_documents([CORPORA / SITES], "wcxb")):
        host = host_of(document.url)
        if host in ("en.wikipedia.org", "www.thomann.de") and document.gold:
            html = decode(document.data, document.charset).text
            by_site[host].append(SitePage(n, html, document.gold, {name: registry[name](html, document.url).text
                                                                    for name in names}))
    wikipedia = prove(TOKENS, "en.wikipedia.org", by_site["en.wikipedia.org"], names)
    assert wikipedia.pages == 3 and wikipedia.beats, wikipedia.reason
    for page in by_site["en.wikipedia.org"]:  # the stored rule, run by site-rules, gives the proof's text
        stored = run_site_rules(page.html, "https://en.wikipedia.org/x", {"en.wikipedia.org": wikipedia.stored_rule()})
        assert stored.metadata["path"] == "rules"
        assert stored.text == learned_text(page, wikipedia.rule, wikipedia.base)
    thomann = prove(TOKENS, "www.thomann.de", by_site["www.thomann.de"], names)
    assert thomann.pages == 4 and not thomann.beats and thomann.reason.startswith("does not beat")


def test_the_rules_editor_offers_a_learned_rule_only_where_it_beats_and_accepting_stores_it(client, session):
    learned_site(session, "quay.example", exact=False)
    learned_site(session, "exact.example", exact=True)
    add_account(session, "root", "admin")
    add_account(session, "ann", "annotator")
    log_in(client, "ann")
    listing = client.get("/sites/rules").get_data(as_text=True)
    assert 'value="quay.example"' in listing and 'value="exact.example"' in listing
    shown = client.get("/sites/rules/learned?site=quay.example").get_data(as_text=True)
    assert 'data-verdict="beats"' in shown and "article.post" in shown and "whole-page" in shown
    assert "Accept as the site rule" not in shown  # an annotator sees it, an admin accepts it
    forbidden = client.post("/sites/rules/learned", data={"site": "quay.example", "csrf_token": csrf(client)})
    assert forbidden.status_code == 403
    not_better = client.get("/sites/rules/learned?site=exact.example").get_data(as_text=True)
    assert 'data-verdict="no-proposal"' in not_better and "does not beat" in not_better
    assert "1.000" in not_better and "article.post" not in not_better

    client.post("/logout", data={"csrf_token": csrf(client)})
    token = log_in(client, "root")
    assert "Accept as the site rule" in client.get("/sites/rules/learned?site=quay.example").get_data(as_text=True)
    assert client.post("/sites/rules/learned", data={"site": "quay.example"}).status_code == 400  # no CSRF token
    refused = client.post("/sites/rules/learned", data={"site": "exact.example", "csrf_token": token})
    assert refused.status_code == 409
    accepted = client.post("/sites/rules/learned", data={"site": "quay.example", "csrf_token": token})
    assert accepted.status_code == 302
    session.expire_all()
    rule = session.scalars(select(SiteRule).join(Site).where(Site.host == "quay.example")).one()
    assert (rule.body, rule.base, rule.updated_by) == ("article.post", "whole-page", "root")
    assert "aside.related" in rule.drop
    assert session.scalars(select(SiteRule).join(Site).where(Site.host == "exact.example")).one_or_none() is None
    event = session.scalars(select(AuditEvent).where(AuditEvent.action == "rule.set")).one()
    assert (event.actor, event.target, event.detail["learned"]) == ("root", "site quay.example", True)


def test_goldtext_rules_set_takes_a_base_and_lists_it_as_set_takes_it(runner, session):
    args = ["rules", "set", "quay.example", "--body", "article.post", "--drop", "aside.related", "--base", "whole-page"]
    assert runner.invoke(args=args).exit_code == 0
    listed = runner.invoke(args=["rules", "list"]).output
    assert listed.strip() == "quay.example: --body article.post --drop aside.related --base whole-page"
    refused = runner.invoke(args=["rules", "set", "quay.example", "--body", "main", "--base", "site-rules"])
    assert refused.exit_code != 0 and "'site-rules' is not an extractor a rule can refine" in refused.output
    assert runner.invoke(args=["rules", "set", "quay.example", "--body", "main"]).exit_code == 0  # by hand: no base
    assert runner.invoke(args=["rules", "list"]).output.strip() == "quay.example: --body main"
