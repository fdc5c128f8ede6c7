"""Goldtext's magic-html extractor, run by magic-html's own Python (3.12 or later: this folder's .venv, made by
install.sh), one page per request. Requests on standard input, answers on standard output, one JSON object per
line each: {"html": "...", "url": "https://..." | null, "options": {"html_type": "article"}}
-> {"html": "<main-content html>", "title": ...} or {"error": "..."}. magic-html parses the page and fetches
nothing; what it prints goes to standard error, so that nothing else reaches standard output."""

import contextlib
import json
import sys

from magic_html import GeneralExtractor


def extract(request: dict) -> dict:
    """GeneralExtractor().extract(html, base_url=URL, html_type=...); a blank page is empty (magic-html raises a bare
    ValueError on one)."""
    html = request.get("html") or ""
    if not html.strip():
        return {"html": "", "title": ""}
    options = request.get("options") or {}
    found = GeneralExtractor().extract(html, base_url=request.get("url") or "",
                                       html_type=options.get("html_type", "article"))
    return {"html": found.get("html") or "", "title": found.get("title") or ""}


def main() -> None:
    answers = sys.stdout
    for line in sys.stdin:
        try:
            with contextlib.redirect_stdout(sys.stderr):
                answer = extract(json.loads(line))
        except Exception as error:  # the page's error, answered; the next page goes on
            answer = {"error": f"{type(error).__name__}: {error}"}
        answers.write(json.dumps(answer) + "\n")
        answers.flush()


if __name__ == "__main__":
    main()
