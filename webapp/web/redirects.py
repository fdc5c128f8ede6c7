"""Where a view may send the browser after a form: only a path on this site (a login's `next`)."""

from __future__ import annotations

from urllib.parse import unquote, urlsplit

from .request_input import TEXT, Form, given

NEXT = Form({"next": TEXT})
"""Where to go after a login or after giving one's name (the query string's or the form's ``next``)."""


def asked_target() -> str | None:
    """The request's ``next`` if it is a path on this site (`local_target`), else None."""
    return local_target(given(NEXT)["next"])


def local_target(target: str | None) -> str | None:
    """Only a path on this site may be a redirect target, anything else is None (the caller goes home).

    The target starts with one "/" and holds no backslash, whitespace or control character (browsers
    drop tabs and newlines, so a slash, a tab and a slash would mean "//", another host); nor does its
    path once percent-decoded."""
    if not target or unsafe_target(target):
        return None
    path = unquote(target.split("?", 1)[0].split("#", 1)[0])
    if unsafe_target(path):
        return None
    parts = urlsplit(target)
    return None if parts.scheme or parts.netloc else target


def unsafe_target(text: str) -> bool:
    return (not text.startswith("/") or text[1:2] == "/" or "\\" in text
            or any(ch.isspace() or ord(ch) < 32 or ord(ch) == 127 for ch in text))
