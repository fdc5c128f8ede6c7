"""How a capture's rendering in Chromium waits (CAPTURE_RENDER_SECONDS, CAPTURE_RENDER_SCROLL)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class RenderLimits:
    seconds: float = 30.0
    """The most seconds a page is given to load (until the network is idle) and, scrolled, to load again."""
    scroll: bool = True
    """Whether the page is scrolled to its end, step by step, to load what it loads lazily."""
