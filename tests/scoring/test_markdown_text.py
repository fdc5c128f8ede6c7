"""The two views of one gold: the plain text of Markdown, and flat text carried into Markdown unchanged."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.corpora import CORPORA, WCXB
from webapp.scoring.markdown_text import markdown_of_text, plain_text


@pytest.mark.parametrize(
    ("markdown", "text"),
    [
        ("# Title\n\nA *first* paragraph\nwrapped.", "Title\nA first paragraph\nwrapped."),  # a line stays a line
        ("- one\n- two\n  - nested", "one\ntwo\nnested"),
        ("| a | b |\n|---|---|\n| 1 | 2 |", "a b\n1 2"),
        ("```python\nx = 1\n\ny = 2\n```", "x = 1\ny = 2"),
        ("> quoted [link](https://example.org) and ![pixel](p.png)", "quoted link and"),
        ("Energy $E = mc^2$ here\n\n$$\n\\int f\n$$", "Energy E = mc^2 here\n\\int f"),
        ("<table><tr><td rowspan=2>a</td><td>b</td></tr><tr><td>c</td></tr></table>", "a b\nc"),
    ],
)
def test_plain_text_removes_markup_one_block_per_line(markdown: str, text: str) -> None:
    assert plain_text(markdown) == text


@pytest.mark.parametrize(
    "text",
    [
        "# not a heading",
        "1. not a list\n- nor this\n+ nor this\n> nor a quote",
        "*stars* _under_ `tick` [bracket](x) <b>tag</b> &amp; ~~gone~~ | pipe $5 and $6 \\ back!",
        "---",
        "12) twelve",
    ],
)
def test_flat_text_keeps_its_text_through_markdown(text: str) -> None:
    assert plain_text(markdown_of_text(text)) == text


line = st.text(st.characters(blacklist_categories=("Cs", "Cc", "Zl", "Zp")), min_size=1).map(str.strip).filter(bool)


@given(st.lists(line, min_size=1, max_size=5))
def test_any_flat_gold_keeps_its_text(lines: list[str]) -> None:
    text = "\n".join(lines)
    assert plain_text(markdown_of_text(text)) == text


@pytest.mark.slow
@pytest.mark.corpus(WCXB)
def test_every_wcxb_gold_keeps_its_text() -> None:
    for path in sorted((CORPORA / WCXB / "dev" / "ground-truth").glob("*.json")):
        content = json.loads(path.read_text(encoding="utf-8"))["ground_truth"].get("main_content") or ""
        text = "\n".join(line.strip() for line in content.splitlines() if line.strip())
        assert plain_text(markdown_of_text(text)) == text, path.name

