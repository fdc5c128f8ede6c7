"""Where a page shows a date: the line of its visible text (corpus/visible_text.py) that writes a given day in
one of the common forms ("2024-03-01", "1 March 2024", "March 1, 2024", "Mar 1, 2024", "01.03.2024",
"01/03/2024", "03/01/2024"), so that the annotate view can show a date as the page shows it beside its ISO 8601
form. Case is ignored; the first line that has one of the forms is the answer."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import date, datetime

SHOWN_MAX = 120  # characters of the line shown around the date


def written_forms(day: date) -> list[str]:
    """The forms a page may write the day in, lower-cased."""
    month, short = day.strftime("%B"), day.strftime("%b")
    forms = [day.isoformat(), f"{day.day} {month} {day.year}", f"{day.day}. {month} {day.year}",
             f"{month} {day.day}, {day.year}", f"{short} {day.day}, {day.year}", f"{day.day} {short} {day.year}",
             f"{month} {day.day} {day.year}", day.strftime("%d.%m.%Y"), day.strftime("%d/%m/%Y"),
             day.strftime("%m/%d/%Y"), f"{day.day:02d} {month} {day.year}"]
    return [form.lower() for form in dict.fromkeys(forms)]


def date_shown(published: str, lines: Sequence[str]) -> str | None:
    """The page's line that shows the day of ``published`` (ISO 8601), cut to SHOWN_MAX characters around it;
    None when no line does (or the value is no date)."""
    try:
        day = datetime.fromisoformat(published).date()
    except ValueError:
        return None
    forms = written_forms(day)
    for line in lines:
        lowered = line.lower()
        for form in forms:
            at = lowered.find(form)
            if at >= 0:
                return _around(line, at, len(form))
    return None


def _around(line: str, at: int, size: int) -> str:
    if len(line) <= SHOWN_MAX:
        return line
    start = max(0, min(at - (SHOWN_MAX - size) // 2, len(line) - SHOWN_MAX))
    return ("…" if start else "") + line[start:start + SHOWN_MAX] + ("…" if start + SHOWN_MAX < len(line) else "")


def dates_shown(values: Iterable[str], lines: Sequence[str]) -> dict[str, str]:
    """Each date value (ISO 8601) -> the page's line that shows it, for those the page shows."""
    found = {value: date_shown(value, lines) for value in dict.fromkeys(values)}
    return {value: line for value, line in found.items() if line is not None}
