"""Page kinds and gold statuses: the vocabulary shared by readers, models and views."""

ARTICLE = "article"

PAGE_KINDS: dict[str, str] = {
    ARTICLE: "article",
    "listing": "listing",
    "js-shell": "JavaScript shell",
    "wall": "paywall or consent wall",
    "not-article": "not an article",
    "other": "error or other",
}

GOLD_STATUSES: dict[str, str] = {
    "done": "done",
    "draft": "draft",
    "skipped": "skipped",
}


def is_article(kind: str | None) -> bool:
    """A page without a kind is taken to be an article."""
    return kind in (None, ARTICLE)
