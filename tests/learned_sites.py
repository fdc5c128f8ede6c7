"""A hand-made site whose gold pages teach a site rule (tests of the learned rules and of the routes that show
them): each page a menu, the story in article.post, a related box and a footer; the gold is the story."""

from __future__ import annotations

from workbench import EAGER, NO_CONTENT, add_page, new_batch

from webapp.extractors.registry import build_registry
from webapp.results.store import refresh_scores

MENU = "<nav class='menu'><ul><li>Home</li><li>Shop</li><li>Blog</li><li>About us</li></ul></nav>"
FOOTER = "<footer class='foot'><p>Copyright Quay Gazette, all rights reserved</p></footer>"


def story(n: int) -> tuple[str, str]:
    """(html, gold) of a hand-made article page: a menu, the story in article.post, a related box
    and a footer around it; the gold is the story's title and paragraphs."""
    paragraphs = [f"Paragraph {k} of story {n} tells of harbour number {n * 10 + k} and its boats." for k in range(6)]
    body = "".join(f"<p>{p}</p>" for p in paragraphs)
    html = (f"<html><body>{MENU}<div id='main'><article class='post'><h1>Story {n} of the quay</h1>{body}"
            f"</article><aside class='related'><p>Read also: story {n + 1} of the quay and its gulls</p></aside>"
            f"</div>{FOOTER}</body></html>")
    return html, "\n".join([f"Story {n} of the quay", *paragraphs])


def whole_page(html: str) -> str:
    return build_registry()["whole-page"](html).text


def learned_site(session, host: str, exact: bool) -> None:
    """Four gold pages of a hand-made site, whole-page's text the candidate (exact: the gold itself)."""
    batch = new_batch(session)
    for n in range(4):
        html, gold = story(n)
        add_page(session, host, batch, gold, {"whole-page": gold if exact else whole_page(html)}, html=html)
    refresh_scores(session, EAGER, no_content=NO_CONTENT)
    session.commit()
