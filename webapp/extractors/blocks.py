"""What the extractors add to the one definition of visible text (webapp/corpus/visible_text.py).

The lxml-based extractors turn what they keep into text with `visible_text.block_lines`; the others
tidy their own library's text into lines with `join_lines`.
"""

from __future__ import annotations

from collections.abc import Iterable

# Part of the version of every extractor whose output goes through visible_text.block_lines:
# bump it when block_lines' output changes, so that stored extractions are redone.
BLOCKS_VERSION = "goldtext-blocks 1"


def join_lines(lines: Iterable[str]) -> str:
    """One paragraph per line: each line stripped, blank lines dropped."""
    return "\n".join(filter(None, (line.strip() for line in lines)))
