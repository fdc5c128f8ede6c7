"""Server-rendered SVG charts (pure: figures in, markup out; works offline, no script, no inline style).

Colours are SVG presentation attributes, which the app's CSP allows (it forbids style attributes).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from markupsafe import Markup, escape

PALETTE = ("#1f6feb", "#d73a49", "#28a745", "#6f42c1", "#e36209", "#0598bc", "#b08800", "#6a737d",
           "#ea4aaa", "#22863a")
WIDTH, HEIGHT, MARGIN = 560, 360, 48


def colour(i: int) -> str:
    return PALETTE[i % len(PALETTE)]


def _svg(body: list[str], label: str, height: int = HEIGHT) -> Markup:
    return Markup(
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 {WIDTH} {height}" '
        f'role="img" aria-label="{escape(label)}">' + "".join(body) + "</svg>"
    )


def _text(x: float, y: float, text: Any, anchor: str = "start", size: int = 11) -> str:
    return (f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}" '
            f'fill="#1d232a">{escape(str(text))}</text>')


def _line(x1: float, y1: float, x2: float, y2: float, stroke: str = "#5b6570", width: float = 1) -> str:
    return f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="{stroke}" stroke-width="{width}"/>'


def axis_floor(values: Sequence[float]) -> float:
    """The lower end of a 0..1 axis zoomed to the values (a tenth below the smallest, at least 0)."""
    return max(0.0, np.floor((min(values, default=0.0) - 0.05) * 10) / 10)


def _scale(low: float, high: float, start: float, end: float):
    span = (high - low) or 1.0
    return lambda v: start + (v - low) / span * (end - start)


def _grid(x, y, low_x: float, low_y: float, x_label: str, y_label: str) -> list[str]:
    body = [_line(x(low_x), y(low_y), x(1), y(low_y)), _line(x(low_x), y(low_y), x(low_x), y(1))]
    for tick in np.linspace(low_x, 1, 5):
        body.append(_text(x(tick), y(low_y) + 14, f"{tick:.2f}", "middle", 10))
    for tick in np.linspace(low_y, 1, 5):
        body.append(_text(x(low_x) - 4, y(tick) + 3, f"{tick:.2f}", "end", 10))
    body.append(_text((x(low_x) + x(1)) / 2, HEIGHT - 6, x_label, "middle"))
    body.append(_text(10, MARGIN - 12, y_label))
    return body


def precision_recall(points: Sequence[Mapping[str, Any]]) -> Markup:
    """Precision (y) against recall (x) per extractor, with +/- one bootstrap spread as error bars.

    Each point: name, precision, recall, precision_std, recall_std (spreads may be None).
    """
    shown = [p for p in points if p["precision"] is not None and p["recall"] is not None]
    low_x = axis_floor([p["recall"] - (p["recall_std"] or 0) for p in shown])
    low_y = axis_floor([p["precision"] - (p["precision_std"] or 0) for p in shown])
    x = _scale(low_x, 1, MARGIN, WIDTH - 150)
    y = _scale(low_y, 1, HEIGHT - MARGIN, MARGIN)
    body = _grid(x, y, low_x, low_y, "recall", "precision")
    for i, p in enumerate(shown):
        cx, cy, c = x(p["recall"]), y(p["precision"]), colour(i)
        if p["recall_std"]:
            body.append(_line(x(p["recall"] - p["recall_std"]), cy, x(p["recall"] + p["recall_std"]), cy, c))
        if p["precision_std"]:
            low, high = p["precision"] - p["precision_std"], p["precision"] + p["precision_std"]
            body.append(_line(cx, y(low), cx, y(high), c))
        body.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="4" fill="{c}"><title>{escape(p["name"])}: '
                    f'P {p["precision"]:.3f}, R {p["recall"]:.3f}</title></circle>')
        body.append(f'<rect x="{WIDTH - 140}" y="{MARGIN + 16 * i - 8}" width="10" height="10" fill="{c}"/>')
        body.append(_text(WIDTH - 126, MARGIN + 16 * i + 1, p["name"]))
    return _svg(body, "precision against recall per extractor")


def quartiles(values: Sequence[float]) -> tuple[float, float, float, float, float]:
    """(minimum, first quartile, median, third quartile, maximum)."""
    q = np.percentile(np.asarray(values, dtype=float), [0, 25, 50, 75, 100])
    return tuple(float(v) for v in q)  # type: ignore[return-value]


def f1_boxes(distributions: Mapping[str, Sequence[float]], human: float | None = None) -> Markup:
    """One horizontal box plot of per-page F1 per extractor (whiskers: minimum and maximum), and a dashed
    line at the annotators' own F1 against each other (`human`) where there is one."""
    row = 26
    height = MARGIN + row * max(len(distributions), 1) + 30
    x = _scale(0, 1, 150, WIDTH - 20)
    body = [_line(x(0), height - 30, x(1), height - 30)]
    for tick in np.linspace(0, 1, 6):
        body.append(_text(x(tick), height - 16, f"{tick:.1f}", "middle", 10))
    body.append(_text(x(0.5), height - 2, "per-page F1", "middle"))
    for i, (name, values) in enumerate(distributions.items()):
        mid = MARGIN + row * i
        body.append(_text(144, mid + 4, name, "end"))
        if not values:
            continue
        low, q1, median, q3, high = quartiles(values)
        c = colour(i)
        body.append(_line(x(low), mid, x(high), mid, c))
        body.append(f'<rect x="{x(q1):.1f}" y="{mid - 8}" width="{max(x(q3) - x(q1), 1):.1f}" height="16" '
                    f'fill="{c}" fill-opacity="0.3" stroke="{c}"><title>{escape(name)}: median {median:.3f}, '
                    f'quartiles {q1:.3f}-{q3:.3f}, {len(values)} pages</title></rect>')
        body.append(_line(x(median), mid - 8, x(median), mid + 8, c, 2))
    if human is not None:
        body.append(f'<line class="human" x1="{x(human):.1f}" y1="{MARGIN - 14}" x2="{x(human):.1f}" '
                    f'y2="{height - 30}" stroke="#5b6570" stroke-dasharray="4 3"/>')
        body.append(_text(x(human), MARGIN - 18, f"annotators {human:.3f}", "middle", 10))
    return _svg(body, "distribution of per-page F1 per extractor", height)


def acceptance_lines(series: Mapping[str, Sequence[tuple[int, float]]]) -> Markup:
    """Acceptance rate (y, 0..1) per site over its import batches (x, in batch order), one line each."""
    batches = sorted({b for points in series.values() for b, _ in points})
    slot = {b: i for i, b in enumerate(batches)}
    x = _scale(0, max(len(batches) - 1, 1), MARGIN, WIDTH - 150)
    y = _scale(0, 1, HEIGHT - MARGIN, MARGIN)
    body = [_line(x(0), y(0), WIDTH - 150, y(0)), _line(x(0), y(0), x(0), y(1))]
    for tick in np.linspace(0, 1, 5):
        body.append(_text(x(0) - 4, y(tick) + 3, f"{tick:.0%}", "end", 10))
    for b in batches:
        body.append(_text(x(slot[b]), y(0) + 14, b, "middle", 10))
    body.append(_text((x(0) + WIDTH - 150) / 2, HEIGHT - 6, "import batch", "middle"))
    body.append(_text(10, MARGIN - 12, "accepted by the guard"))
    for i, (site, points) in enumerate(series.items()):
        c = colour(i)
        coords = " ".join(f"{x(slot[b]):.1f},{y(r):.1f}" for b, r in points)
        body.append(f'<polyline points="{coords}" fill="none" stroke="{c}" stroke-width="2"/>')
        for b, r in points:
            body.append(f'<circle cx="{x(slot[b]):.1f}" cy="{y(r):.1f}" r="3" fill="{c}">'
                        f"<title>{escape(site)}, batch {b}: {r:.0%}</title></circle>")
        body.append(f'<rect x="{WIDTH - 140}" y="{MARGIN + 16 * i - 8}" width="10" height="10" fill="{c}"/>')
        body.append(_text(WIDTH - 126, MARGIN + 16 * i + 1, site))
    return _svg(body, "acceptance rate per site over import batches")
