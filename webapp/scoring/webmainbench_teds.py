"""WebMainBench's ``table_TEDS``, as its ``TEDSMetric`` computes it.

Both table parts are normalised to HTML (``webmainbench_parts.table_html``) and the first ``<table>`` of each is
read by Beautiful Soup into a tree: each element a node with its tag and its stripped text
(``get_text(strip=True)``, the text of all it holds), except that a ``tbody``, ``thead`` or ``tfoot`` holds its
rows' cells in place of its rows. With no table on either side the score is 1; on one side only, 0. Otherwise the
score is ``1 - distance / max(nodes)``, clamped to [0, 1], where ``nodes`` counts each tree's nodes and ``distance``
is what WebMainBench's call of APTED returns: it hands APTED each tree written in bracket notation
(``tag:text(child,child)``, with ``(``, ``)`` and ``,`` in texts made ``[``, ``]`` and ``;``) as one string, and
APTED reads a string as a single node without children. The distance is thus that of two one-node trees under its
cost model: deleting or inserting costs 1; renaming costs 0 for equal labels, 1 for different tags (the label up to
its first ``:``), else the Levenshtein distance of the rest over the longer rest's length, or the other rest's
length when one rest is empty; and APTED takes the cheaper of renaming and deleting plus inserting (2).
"""

from __future__ import annotations

from typing import Any

from .webmainbench_parts import table_html

FLATTENED = ("tbody", "thead", "tfoot")


class Node:
    """A table element: its tag, its text and its element children."""

    __slots__ = ("tag", "text", "children")

    def __init__(self, tag: str, text: str, children: list[Node]) -> None:
        self.tag, self.text, self.children = tag, text, children

    def size(self) -> int:
        return 1 + sum(child.size() for child in self.children)

    def bracket(self) -> str:
        """The node in WebMainBench's bracket notation."""
        label = self.tag
        if self.text:
            label += ":" + self.text.replace("(", "[").replace(")", "]").replace(",", ";")
        if not self.children:
            return label
        return f"{label}({','.join(child.bracket() for child in self.children)})"


def tree_of(element: Any) -> Node:
    """The node of a Beautiful Soup element. A ``tbody``, ``thead`` or ``tfoot`` stays a node, but its children
    are its child elements' children (its rows are skipped, their cells become its children), as
    WebMainBench's ``_element_to_tree`` builds it."""
    nodes = [tree_of(child) for child in element.children if getattr(child, "name", None)]
    if element.name in FLATTENED:
        nodes = [grandchild for node in nodes for grandchild in node.children]
    return Node(element.name, element.get_text(strip=True), nodes)


def parsed_table(part: str) -> Node | None:
    """The tree of a table part's first table (None when it has none)."""
    from bs4 import BeautifulSoup

    html = table_html(part)
    if not html.strip():
        return None
    table = BeautifulSoup(html, "html.parser").find("table")
    return None if table is None else tree_of(table)


def _cost_model() -> Any:
    from apted import Config
    from rapidfuzz.distance import Levenshtein

    def split_label(label: str) -> tuple[str, str]:
        tag, _, text = label.partition(":")
        return tag, text

    class TableCosts(Config):  # type: ignore[misc]
        """WebMainBench's ``TableConfig``: unit deletes and inserts, renames by tag and normalised text."""

        def rename(self, node1: str, node2: str) -> float:
            (tag1, text1), (tag2, text2) = split_label(node1), split_label(node2)
            if tag1 != tag2:
                return 1
            if text1 == text2:
                return 0
            if not text1 or not text2:
                return len(text1 or text2)
            return Levenshtein.distance(text1, text2) / max(len(text1), len(text2))

    return TableCosts()


def teds(predicted_table: str, gold_table: str) -> float:
    """table_TEDS of two table parts."""
    from apted import APTED

    predicted, gold = parsed_table(predicted_table), parsed_table(gold_table)
    if predicted is None and gold is None:
        return 1.0
    if predicted is None or gold is None:
        return 0.0
    distance = float(APTED(predicted.bracket(), gold.bracket(), _cost_model()).compute_edit_distance())
    return max(0.0, min(1.0, 1.0 - distance / max(predicted.size(), gold.size())))
