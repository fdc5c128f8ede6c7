"""Helpers shared by the workbench tests: pages made straight with the models, a named annotator."""

from __future__ import annotations

import hashlib
import json
import re
from itertools import count

from flask.testing import FlaskClient
from sqlalchemy import Engine, delete, select, text
from sqlalchemy.orm import Session

from webapp.accounts.users import add_user
from webapp.annotation.disagreement import refresh_disagreement
from webapp.annotation.gold import add_revision
from webapp.extractors.extraction_service import current_extractors
from webapp.extractors.registry import build_registry
from webapp.foundation.vocabulary import DEFAULT_TAXONOMY
from webapp.models import Extraction, GoldRevision, ImportBatch, Page, Site, SiteRule, User
from webapp.results.store import gold_changed
from webapp.scoring import build_metrics, eager

_serial = count()
METRICS = build_metrics()
"""The registry an app builds: the built-in metrics (and any installed)."""
EAGER = eager(METRICS)
NO_CONTENT = DEFAULT_TAXONOMY.no_content

TOKEN = re.compile(r'name="csrf-token" content="([^"]+)"')


def make_page(
    session: Session,
    html: str = "<html><body><p>Hello</p></body></html>",
    url: str | None = None,
    host: str = "news.example",
    candidates: dict[str, str] | None = None,
) -> Page:
    """A stored page of `host` with one extraction per (extractor name -> text)."""
    site = session.scalars(select(Site).where(Site.host == host)).one_or_none() or Site(host=host)
    batch = ImportBatch(source="tests", format="folder")
    session.add_all([site, batch])
    session.flush()
    raw = html.encode() + f"<!-- {next(_serial)} -->".encode()
    page = Page(
        url=url, site_id=site.id, batch_id=batch.id, source_name="page.html", raw=raw,
        sha256=hashlib.sha256(raw).hexdigest(), encoding="utf-8", encoding_source="meta", html=html,
        facts={},
    )
    session.add(page)
    session.flush()
    for name, extracted in (candidates or {}).items():
        session.add(Extraction(page_id=page.id, extractor=name, fingerprint=f"{name}|1|{{}}", text=extracted,
                               accepted=True))
    session.flush()
    refresh_disagreement(session, [page.id])  # as the extraction run that stores candidates does
    session.commit()
    return page


def add_gold(session: Session, page: Page, **fields) -> GoldRevision:
    """A new revision of the page's gold, its scores refreshed, as a save through the API does."""
    revision = add_revision(session, page, **fields)
    gold_changed(session, EAGER, page.id, no_content=NO_CONTENT)
    return revision


def csrf(client: FlaskClient) -> str:
    """The session's CSRF token, read from a page the way the browser gets it (the login form, which
    answers with and without accounts)."""
    return TOKEN.search(client.get("/login").get_data(as_text=True)).group(1)


def sign_in(client: FlaskClient, name: str = "Ann") -> str:
    """Give the annotator's name; returns the CSRF token."""
    token = csrf(client)
    response = client.post("/annotator", data={"name": name, "csrf_token": token})
    assert response.status_code == 302
    return token


PASSWORD = "correct horse battery"
"""The password of every account the tests add."""


def add_account(session: Session, name: str, role: str) -> User:
    """An account (committed): from the first one on, everyone logs in."""
    user = add_user(session, name, role, PASSWORD)
    session.commit()
    return user


def log_in(client: FlaskClient, name: str, password: str = PASSWORD) -> str:
    """Log the client in through the login form; returns the new session's CSRF token."""
    response = client.post("/login", data={"name": name, "password": password, "csrf_token": csrf(client)})
    assert response.status_code == 302, response.get_data(as_text=True)
    return csrf(client)


def gold_before_accounts(engine: Engine, gold_text: str, authors: tuple[str, ...]) -> None:
    """Upgrade an empty database to 0004 (before accounts and annotations) and store one page whose gold
    has a revision by each of `authors` in turn (the gold's author: the first)."""
    from webapp.foundation.migrate import upgrade

    upgrade(engine, "0004")
    with engine.begin() as conn:
        conn.execute(text("INSERT INTO site (id, host) VALUES (1, 'a.example')"))
        conn.execute(text("INSERT INTO import_batch (id, source, format, created_at, imported, duplicates, rejected,"
                          " report) VALUES (1, 's', 'folder', '2026-01-01', 1, 0, 0, '[]')"))
        conn.execute(text("INSERT INTO page (id, site_id, batch_id, source_name, raw, sha256, encoding, "
                          "encoding_source, html, facts, created_at) VALUES (1, 1, 1, 'p.html', x'00', 'h', "
                          "'utf-8', 'meta', '', '{}', '2026-01-01')"))
        conn.execute(text("INSERT INTO gold (id, page_id, text, kind, status, author, version, updated_at) "
                          "VALUES (1, 1, :text, 'article', 'done', :author, :version, '2026-01-01')"),
                     {"text": gold_text, "author": authors[0], "version": len(authors)})
        for version, author in enumerate(authors, 1):
            conn.execute(text("INSERT INTO gold_revision (gold_id, version, text, kind, status, author, created_at) "
                              "VALUES (1, :version, :text, 'article', 'done', :author, '2026-01-01')"),
                         {"version": version, "text": gold_text, "author": author})


def page_data(response) -> dict:
    text = response.get_data(as_text=True)
    return json.loads(re.search(r'id="page-data"[^>]*>(.*?)</script>', text, re.S).group(1))


def empty_database(session) -> None:
    for model in (Page, ImportBatch, SiteRule, Site):
        session.execute(delete(model))
    session.commit()


def fingerprint(session, name: str) -> str:
    return current_extractors(session, build_registry(), (name,))[0].fingerprint


def add_page(session, host: str, batch: ImportBatch, gold: str | None, texts: dict[str, str],
             html: str = "<p>x</p>", meta: dict | None = None, accepted: bool = True) -> Page:
    """A page of `host` in `batch` with (optionally) done article gold and one extraction per extractor."""
    site = session.scalars(select(Site).where(Site.host == host)).one_or_none() or Site(host=host)
    raw = f"{html}<!-- {next(_serial)} -->".encode()
    page = Page(url=f"https://{host}/{next(_serial)}", site=site, batch=batch, source_name="p.html", raw=raw,
                sha256=hashlib.sha256(raw).hexdigest(), encoding="utf-8", encoding_source="meta", html=html)
    session.add(page)
    session.flush()
    if gold is not None:
        add_revision(session, page, text=gold, page_type="article", status="done", author="ann")
    for name, extracted in texts.items():
        session.add(Extraction(page_id=page.id, extractor=name, fingerprint=fingerprint(session, name), text=extracted,
                               meta=meta or {}, accepted=accepted, duration_ms=10.0 * (1 + len(extracted))))
    session.flush()
    return page


def new_batch(session) -> ImportBatch:
    batch = ImportBatch(source="tests", format="folder")
    session.add(batch)
    session.flush()
    return batch
