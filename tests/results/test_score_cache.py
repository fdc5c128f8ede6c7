"""The in-process ScoreCache on the real database: it keeps at most LEADERBOARDS_KEPT boards (least recently
used dropped first), two caches (two web processes) see each other's gold saves at their next sync, and a
cache older than the change log's pruning floor reloads every count; the log prunes itself every
PRUNE_EVERY epochs once it is older than KEEP_EPOCHS."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest
from sqlalchemy import func, select, update
from workbench import EAGER, METRICS, NO_CONTENT, add_gold

from webapp.annotation.gold import lock_page, save_gold
from webapp.annotation.page_filter import PageFilter
from webapp.extractors.extraction_service import store_all
from webapp.extractors.guard import GuardThresholds
from webapp.extractors.process_pool import Result
from webapp.models import Extraction, ImportBatch, Page, ScoreChange, ScoreEpoch, Site
from webapp.results.cache import LEADERBOARDS_KEPT, ScoreCache, SharedScores
from webapp.results.columns import Columns, PageFacts, Rows, Strings
from webapp.results.leaderboard_figures import (
    LeaderboardOptions,
    leaderboard,
    leaderboard_pages,
    leaderboard_with_extras,
    scored_fingerprints,
)
from webapp.results.store import (
    EPOCH,
    KEEP_EPOCHS,
    PRUNE_EVERY,
    epochs,
    gold_changed,
    prune_changes,
    refresh_scores,
)
from webapp.web.db import readers

GOLDS = [
    ("a.example", "the night train leaves at ten and arrives at six"),
    ("a.example", "compost heats up in a week"),
    ("b.example", "slate roofs last a century, or more"),
    ("b.example", "a quiet reading room"),
]
CANDIDATES = {
    "good": ["the night train leaves at ten", "compost heats up in a week", "slate roofs last a century",
             "a quiet room"],
    "noisy": ["menu the night train leaves at ten and arrives at six login", "", "slate slate roofs",
              "a quiet reading room"],
}
NAMED = {name: f"{name}|1|{{}}" for name in CANDIDATES}
BOOTSTRAP = 20


def seed(session) -> list[int]:
    """Four pages with done article gold on two sites, each extracted by "good" and "noisy", scored."""
    batch = ImportBatch(source="test", format="jsonl")
    session.add(batch)
    session.flush()
    page_ids = []
    for i, (host, gold) in enumerate(GOLDS):
        site = session.scalars(select(Site).where(Site.host == host)).one_or_none() or Site(host=host)
        page = Page(url=f"https://{host}/{i}", site=site, batch=batch, source_name=f"p{i}", raw=b"<p>x</p>",
                    sha256=f"{i:064d}", encoding="utf-8", encoding_source="bom", html="<p>x</p>")
        session.add(page)
        session.flush()
        for name, texts in CANDIDATES.items():
            session.add(Extraction(page_id=page.id, extractor=name, fingerprint=NAMED[name], text=texts[i], meta={}))
        session.flush()
        add_gold(session, page, text=gold, page_type="article", status="done", author=f"ann{i % 2}")
        page_ids.append(page.id)
    session.commit()
    return page_ids


def figures(app, cache: ScoreCache, **query: Any) -> dict[str, Any]:
    """One request of a web process: a reader session, the cache synced, the leaderboard read."""
    query = {"bootstrap": BOOTSTRAP, **query}
    with readers(app)() as session:
        cache.sync(session)
        return leaderboard(cache, "tokens", NAMED, **query)


def fresh(app, **query: Any) -> dict[str, Any]:
    return figures(app, ScoreCache(METRICS), **query)


def leaderboard_of(cache: ScoreCache, query: dict[str, Any]):
    """The kept board of the query (figures' own key of it), or None; it becomes the most recently used."""
    key = ("tokens", query.get("average"), tuple(NAMED.items()), query.get("filters", PageFilter()),
           query.get("bootstrap", BOOTSTRAP), query["seed"])
    found = cache.boards.peek(key)
    return None if found is None else found[1]


def assert_same_figures(got: Any, expected: Any, where: str = "leaderboard") -> None:
    """Equal structure and values, floats to 1e-9 (a corrected board adds differences to sums)."""
    if isinstance(expected, Mapping):
        assert isinstance(got, Mapping) and set(got) == set(expected), f"{where}: {got!r} != {expected!r}"
        for key in expected:
            assert_same_figures(got[key], expected[key], f"{where}[{key!r}]")
    elif isinstance(expected, float) and not isinstance(got, bool):
        assert got == pytest.approx(expected, rel=1e-9, abs=1e-12), where
    else:
        assert got == expected, where


def change_rows(session) -> list[tuple[int, int]]:
    return sorted((epoch, page) for epoch, page in session.execute(select(ScoreChange.epoch, ScoreChange.page_id)))


# --- 1. at most LEADERBOARDS_KEPT boards, least recently used dropped first ---------------------------------


def test_the_cache_keeps_the_leaderboards_kept_most_recently_used_leaderboards(app, session):
    seed(session)
    kept_count = LEADERBOARDS_KEPT
    queries = [{"seed": s} for s in range(kept_count)] + [
        {"seed": 100, "filters": PageFilter(sites=("a.example",))},
        {"seed": 101, "average": "micro"},
        {"seed": 102, "filters": PageFilter(authors=("ann1",))},
    ]
    assert len(queries) == kept_count + 3
    cache = ScoreCache(METRICS)
    boards: dict[int, Any] = {}
    results: dict[int, dict] = {}

    for q in range(kept_count):
        results[q] = figures(app, cache, **queries[q])
        boards[q] = leaderboard_of(cache, queries[q])
    assert cache.boards.held == kept_count
    assert len({id(b) for b in boards.values()}) == kept_count  # one board per query

    assert_same_figures(figures(app, cache, **queries[0]), results[0])
    assert leaderboard_of(cache, queries[0]) is boards[0]  # a recent query reuses its board, now the newest

    for q in range(kept_count, kept_count + 3):
        results[q] = figures(app, cache, **queries[q])
        boards[q] = leaderboard_of(cache, queries[q])

    order = [*range(1, kept_count), 0]  # least recently used first, after query 0 was asked again
    dropped, kept = order[:3], [*order[3:], kept_count, kept_count + 1, kept_count + 2]
    assert cache.boards.held == kept_count
    assert all(leaderboard_of(cache, queries[q]) is None for q in dropped)
    assert all(leaderboard_of(cache, queries[q]) is boards[q] for q in kept)  # looked at least recently used first

    for q in kept:  # each kept board is reused, not rebuilt
        assert_same_figures(figures(app, cache, **queries[q]), results[q])
        assert leaderboard_of(cache, queries[q]) is boards[q]
    gone = dropped[0]
    assert_same_figures(figures(app, cache, **queries[gone]), results[gone])
    assert leaderboard_of(cache, queries[gone]) not in (None, boards[gone])  # a dropped board is built again
    assert cache.boards.held == kept_count

    for q, query in enumerate(queries):
        assert_same_figures(results[q], fresh(app, **query), f"query {q}")
    assert results[0] != results[1] and results[kept_count]["pages"] == 2  # the queries differ


# --- 2. two processes: a save through one shows in the other at its next sync --------------------------


def test_a_gold_save_through_one_process_shows_in_the_other_at_its_next_sync(app, session):
    pages = seed(session)
    first, second = ScoreCache(METRICS), ScoreCache(METRICS)
    before = figures(app, first)
    assert_same_figures(figures(app, second), before)
    by_site_before = figures(app, first, filters=PageFilter(sites=("b.example",)))

    page = lock_page(session, pages[2])  # the second process saves page 2's gold, as the workbench does
    outcome = save_gold(session, page, base_version=1, text="slate roofs", page_type="article", status="done",
                        author="other", client_save_id="save-1")
    gold_changed(session, EAGER, page.id, no_content=NO_CONTENT)
    session.commit()
    assert not outcome.conflict and outcome.record.version == 2

    expected = fresh(app)
    assert expected["extractors"]["noisy"]["f1"] != pytest.approx(before["extractors"]["noisy"]["f1"])
    assert_same_figures(figures(app, second), expected)
    assert_same_figures(figures(app, first), expected)  # the other process, at its next sync
    assert_same_figures(figures(app, first, filters=PageFilter(sites=("b.example",))),
                        fresh(app, filters=PageFilter(sites=("b.example",))))
    assert first.epoch == second.epoch == epochs(session)[0]
    assert figures(app, first, filters=PageFilter(sites=("b.example",))) != by_site_before

    page = lock_page(session, pages[0])  # a page leaves the leaderboard: no longer an article
    save_gold(session, page, base_version=1, text="", page_type="listing", status="done", author="other",
              client_save_id="save-2")
    gold_changed(session, EAGER, page.id, no_content=NO_CONTENT)
    session.commit()
    expected = fresh(app)
    assert expected["pages"] == 3
    assert_same_figures(figures(app, first), expected)
    assert_same_figures(figures(app, second), expected)


# --- 3. pruning the change log ------------------------------------------------------------------------


def test_a_cache_older_than_the_pruned_floor_reloads_every_count(app, session):
    pages = seed(session)
    cache = ScoreCache(METRICS)
    before = figures(app, cache)
    synced_at = cache.epoch
    assert synced_at == epochs(session)[0] > 0

    # a change the cache has not seen, whose log entry the pruning then removes
    add_gold(session, session.get(Page, pages[2]), text="slate roofs", page_type="article", status="done",
                 author="other")
    session.commit()
    floor = epochs(session)[0]
    assert floor > synced_at
    prune_changes(session, floor)
    session.commit()
    assert epochs(session)[1] == floor
    assert all(epoch > floor for epoch, _ in change_rows(session))
    assert session.scalar(select(func.count()).select_from(ScoreChange).where(ScoreChange.epoch <= floor)) == 0

    # and one made after the pruning
    add_gold(session, session.get(Page, pages[3]), text="a reading room", page_type="article", status="done",
                 author="other")
    session.commit()
    assert [epoch for epoch, _ in change_rows(session)] == [floor + 1]

    after = figures(app, cache)
    assert cache.epoch == epochs(session)[0] == floor + 1
    assert_same_figures(after, fresh(app))
    assert after["extractors"]["noisy"]["f1"] != pytest.approx(before["extractors"]["noisy"]["f1"])


def test_the_log_prunes_itself_every_prune_every_epochs_beyond_keep_epochs(app, session):
    pages = seed(session)
    cache = ScoreCache(METRICS)
    figures(app, cache)
    point = (KEEP_EPOCHS // PRUNE_EVERY + 1) * PRUNE_EVERY  # the first multiple above KEEP_EPOCHS
    floor = point - KEEP_EPOCHS
    assert cache.epoch < floor - 1  # the seed's epochs are all below the floor

    session.add_all(ScoreChange(epoch=e, page_id=pages[0]) for e in (floor - 1, floor, floor + 1, point - 2))
    session.execute(update(ScoreEpoch).where(ScoreEpoch.id == EPOCH).values(value=point - 2))
    session.commit()
    seeded = change_rows(session)

    add_gold(session, session.get(Page, pages[1]), text="compost heats", page_type="article", status="done",
                 author="other")  # epoch point - 1: not a pruning point
    session.commit()
    assert epochs(session)[0] == point - 1
    assert epochs(session)[1] == 0
    assert change_rows(session) == sorted([*seeded, (point - 1, pages[1])])

    add_gold(session, session.get(Page, pages[2]), text="slate roofs", page_type="article", status="done",
                 author="other")  # epoch point: prunes everything at or below point - KEEP_EPOCHS
    session.commit()
    assert epochs(session)[0] == point
    assert epochs(session)[1] == floor
    assert change_rows(session) == [(floor + 1, pages[0]), (point - 2, pages[0]), (point - 1, pages[1]),
                                    (point, pages[2])]

    assert_same_figures(figures(app, cache), fresh(app))  # the old cache reloaded, both saves included
    assert cache.epoch == point


# --- 4. every figure kept up to date by the change log equals one computed from scratch ----------------


def everything(app, shared: SharedScores) -> dict[str, Any]:
    """What a web request reads of the cache, for every kind of query: the figures, their extras (the
    guard's acceptance and the median time), the pages aligned, the fingerprints scored."""
    found: dict[str, Any] = {}
    with readers(app)() as session, shared.synced(session) as cache:
        for label, filters in (("all", PageFilter()), ("site a", PageFilter(sites=("a.example",))),
                               ("ann1", PageFilter(authors=("ann1",))),
                               ("type", PageFilter(page_types=("listing",)))):
            options = LeaderboardOptions(filters=filters, bootstrap=BOOTSTRAP)
            found[label] = leaderboard_with_extras(shared, options, NAMED)
            found[f"{label} pages"] = list(leaderboard_pages(cache, "tokens", list(NAMED.values()), filters))
        found["by site"] = leaderboard(cache, "tokens", NAMED, by="site", bootstrap=BOOTSTRAP)
        found["scored"] = scored_fingerprints(cache, "tokens")
    return found


def test_figures_kept_up_to_date_equal_figures_computed_from_scratch(app, session):
    pages = seed(session)
    kept = SharedScores(ScoreCache(METRICS))
    assert_same_figures(everything(app, kept), everything(app, SharedScores(ScoreCache(METRICS))))

    def save(page_id: int, **fields: Any) -> None:
        page = lock_page(session, page_id)
        version = page.gold.version
        save_gold(session, page, base_version=version, author=fields.pop("author", "ann0"),
                  client_save_id=f"save-{page_id}-{version}", **{"page_type": "article", "status": "done", **fields})
        gold_changed(session, EAGER, page_id, no_content=NO_CONTENT)
        session.commit()

    def reextract(page_id: int, name: str, text: str, duration_ms: float) -> None:
        store_all(session, [Result(key=(page_id, 10_000), extractor_name=name, fingerprint=NAMED[name], text=text,
                              metadata={}, duration_ms=duration_ms, error=None, incomplete=False)], GuardThresholds())
        refresh_scores(session, EAGER, [page_id], no_content=NO_CONTENT)
        session.commit()

    steps = [
        lambda: save(pages[0], text="the night train"),  # figures change, the pages stay
        lambda: save(pages[1], text="compost", status="draft"),  # a page leaves every board
        lambda: save(pages[2], text="slate roofs", page_type="listing"),  # moves between the type filters
        lambda: save(pages[3], text="a quiet reading room", author="ann1"),  # between the annotator filters
        lambda: reextract(pages[0], "good", "", 123.0),  # its time (and the guard's verdict) change
        lambda: reextract(pages[2], "good", "slate", 200.0),
        lambda: save(pages[1], text="compost heats up", status="done"),  # the page comes back
    ]
    seen = []
    for step in steps:
        step()
        got = everything(app, kept)
        assert_same_figures(got, everything(app, SharedScores(ScoreCache(METRICS))))
        seen.append(got)
    assert seen[0]["all pages"] == pages and seen[1]["all pages"] == [pages[0], pages[2], pages[3]]
    assert seen[2]["type pages"] == [pages[2]] and seen[3]["ann1 pages"] == [pages[3]]
    assert seen[3]["all"]["extras"]["good"]["median_ms"] == 0.0
    assert seen[5]["all"]["extras"]["good"]["median_ms"] == 123.0  # of 123, 200 and 0 ms
    assert seen[6]["all pages"] == pages


def test_a_snapshot_is_used_only_within_the_reach_of_the_change_log(app, session, tmp_path):
    pages = seed(session)
    path = tmp_path / "snapshot.pickle"
    first = ScoreCache(METRICS, snapshot_path=path)
    expected = figures(app, first)
    assert first.loaded_from == "database" and path.exists()
    second = ScoreCache(METRICS, snapshot_path=path)
    assert_same_figures(figures(app, second), expected)
    assert second.loaded_from == "snapshot"
    whole = path.read_bytes()
    path.write_bytes(whole[: len(whole) * 2 // 3])  # a file broken off: read the database instead
    broken = ScoreCache(METRICS, snapshot_path=path)
    assert_same_figures(figures(app, broken), expected)
    assert broken.loaded_from == "database" and path.read_bytes() == whole  # and stored whole again

    add_gold(session, session.get(Page, pages[2]), text="slate roofs", page_type="article", status="done", author="x")
    session.commit()
    prune_changes(session, epochs(session)[0])  # the log no longer reaches back to the snapshot
    session.commit()
    third = ScoreCache(METRICS, snapshot_path=path)
    assert_same_figures(figures(app, third), fresh(app))
    assert third.loaded_from == "database"


def test_counts_read_in_bulk_keep_only_the_pages_with_facts():
    """A cold start reads the pages' facts and their counts in two statements: a count whose page has no
    facts (its gold stopped being done in between) is left out, for the next sync to bring back, and
    every other count is stored with its own page's site, type, batch and annotator."""
    strings = Strings()
    facts = PageFacts.of_rows([(30, "b.example", "forum", 2, "Bob"), (10, "a.example", "article", 1, "Ann")],
                              strings)
    counts = '{"hit": %d, "extracted": 4, "gold": 5, "exact": false, "errored": %s}'
    rows = Rows.decode(METRICS["tokens"].fields, [
        ("tokens", counts % (3, "false"), 10, "good|1|{}", True, 12.5),
        ("tokens", counts % (1, "true"), 20, "good|1|{}", False, 3.0),
        ("tokens", counts % (2, "false"), 30, "noisy|1|{}", False, 7.0),
    ])
    columns = Columns(METRICS["tokens"].fields, strings)
    columns.reserve(facts.pages_among([rows.page_id]), len(rows.names))
    columns.put(rows, facts)
    assert sorted(columns.slots) == [10, 30]
    assert columns.scored() == {"good|1|{}": 1, "noisy|1|{}": 1}
    assert columns.row_counts("good|1|{}", columns.slots[10]) == {
        "hit": 3.0, "extracted": 4.0, "gold": 5.0, "exact": 0.0, "errored": False}
    assert [columns.fact(name, columns.slots[30]) for name in ("site", "type", "author")] == [
        "b.example", "forum", "Bob"]
    assert int(columns.batch[columns.slots[30]]) == 2
    assert not columns.has_all(20, ["good|1|{}"])
