"""One metric's current counts held column by column: a numpy array per figure, not an object per row.

A page has one slot (its row in every array) for as long as the process runs; each fingerprint has one
column of every per-extraction array. The page's own facts (site, page type, batch, author) are kept
once per page, the strings as codes into the cache's shared list. At 100,000 pages x 16 extractors the
counts of one metric take about 50 MB, and a board reads its pages' fields as array slices.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from operator import itemgetter, methodcaller
from typing import Any

import numpy as np

from ..annotation.page_filter import PageFilter
from ..scoring.metric import Fields

GROWTH = 1.5
PAGE_FACTS = ("site", "type", "author")
"""The page's string facts, kept as codes into Strings."""


class Strings:
    """The cache's strings (fingerprints aside) by code, and each string's code."""

    def __init__(self, names: Sequence[str] = ()) -> None:
        self.names: list[str] = list(names)
        self.codes = {name: code for code, name in enumerate(self.names)}

    def code(self, name: str) -> int:
        found = self.codes.get(name)
        if found is None:
            found = self.codes[name] = len(self.names)
            self.names.append(name)
        return found

    def codes_of(self, names: Iterable[str]) -> np.ndarray:
        """The codes of those names that have one."""
        return np.array([self.codes[n] for n in names if n in self.codes], dtype=np.int32)


@dataclass(frozen=True)
class PageFacts:
    """The facts of pages read once per page (not once per count): by page id in increasing order, the
    batch and the codes (into Strings) of the site, page type and author."""

    page_id: np.ndarray
    batch: np.ndarray
    codes: dict[str, np.ndarray]

    @classmethod
    def of_rows(cls, rows: Sequence[tuple[int, str, str, int, str]], strings: Strings) -> PageFacts:
        """From (page, site, type, batch, author) rows, in any order."""
        pages, sites, page_types, batches, authors = (list(column) for column in zip(*rows)) if rows else ([],) * 5
        order = np.argsort(np.array(pages, dtype=np.int64), kind="stable")
        codes = {}
        for name, values in zip(PAGE_FACTS, (sites, page_types, authors)):
            code = {value: strings.code(value) for value in dict.fromkeys(values)}
            codes[name] = np.fromiter(map(code.__getitem__, values), dtype=np.int32, count=len(values))[order]
        return cls(np.array(pages, dtype=np.int64)[order], np.array(batches, dtype=np.int64)[order], codes)

    def pages_among(self, page_ids: Iterable[np.ndarray]) -> int:
        """How many distinct pages with facts these arrays of page ids hold."""
        seen = np.zeros(len(self.page_id) + 1, dtype=bool)
        for pages in page_ids:
            seen[self.find(pages)] = True  # a page without facts marks the last entry, not counted
        return int(seen[:-1].sum())

    def find(self, pages: np.ndarray) -> np.ndarray:
        """Where each page's facts are (-1 for a page without them)."""
        at = np.searchsorted(self.page_id, pages)
        inside = np.minimum(at, max(len(self.page_id) - 1, 0))
        known = (at < len(self.page_id)) & (self.page_id[inside] == pages) if len(self.page_id) else \
            np.zeros(len(pages), dtype=bool)
        return np.where(known, at, -1)


@dataclass(frozen=True)
class Rows:
    """Counts of one metric read in bulk, one entry per page and fingerprint, field by field; the
    fingerprints as codes into `names`."""

    page_id: np.ndarray
    fingerprint: np.ndarray
    names: list[str]
    counts: np.ndarray
    """One row per entry, one column per field of the metric."""
    errored: np.ndarray
    accepted: np.ndarray
    duration: np.ndarray

    def __len__(self) -> int:
        return len(self.page_id)

    @classmethod
    def decode(cls, fields: Sequence[str], rows: Sequence[tuple[Any, str, int, str, Any, float]]) -> Rows:
        """From (anything, counts as JSON text, page, fingerprint, accepted, duration in ms) rows: the counts
        decoded in one call, every column taken as one array."""
        _, texts, pages, fingerprints, accepted, durations = zip(*rows)
        decoded = json.loads("[" + ",".join(texts) + "]")
        n = len(decoded)
        counts = np.empty((n, len(fields)))
        for k, name in enumerate(fields):
            counts[:, k] = np.fromiter(map(itemgetter(name), decoded), dtype=float, count=n)
        code = {fp: c for c, fp in enumerate(dict.fromkeys(fingerprints))}
        return cls(
            np.fromiter(pages, dtype=np.int64, count=n),
            np.fromiter(map(code.__getitem__, fingerprints), dtype=np.int64, count=n), list(code), counts,
            np.fromiter(map(methodcaller("get", "errored", False), decoded), dtype=bool, count=n),
            np.fromiter(accepted, dtype=bool, count=n),
            np.fromiter(durations, dtype=float, count=n),
        )

    def where(self, mask: np.ndarray) -> Rows:
        return Rows(self.page_id[mask], self.fingerprint[mask], self.names, self.counts[mask], self.errored[mask],
                    self.accepted[mask], self.duration[mask])

    def fingerprints(self) -> list[str]:
        """Each entry's fingerprint."""
        return [self.names[c] for c in self.fingerprint.tolist()]


class Columns:
    """The current counts of one metric: `counts[f, slot]` holds fingerprint f's fields on the page in
    that slot, `present[f, slot]` whether it has a count there."""

    def __init__(self, fields: Sequence[str], strings: Strings) -> None:
        self.fields = tuple(fields)
        self.strings = strings
        self.slots: dict[int, int] = {}
        self.fingerprints: dict[str, int] = {}
        self.page_id = np.zeros(0, dtype=np.int64)
        self.batch = np.zeros(0, dtype=np.int64)
        self.facts = {name: np.zeros(0, dtype=np.int32) for name in PAGE_FACTS}
        self.counts = np.zeros((0, 0, len(self.fields)))
        self.present = np.zeros((0, 0), dtype=bool)
        self.errored = np.zeros((0, 0), dtype=bool)
        self.accepted = np.zeros((0, 0), dtype=bool)
        self.duration = np.zeros((0, 0))

    # --- state as plain arrays, for the snapshot ----------------------------------------------------

    ARRAYS = ("page_id", "batch", "counts", "present", "errored", "accepted", "duration")

    def state(self) -> dict[str, Any]:
        """Everything held, trimmed to the slots in use: plain arrays, lists and strings."""
        used = len(self.slots)
        state: dict[str, Any] = {"fields": self.fields, "fingerprints": list(self.fingerprints)}
        for name in self.ARRAYS:
            array = getattr(self, name)
            state[name] = array[..., :used, :] if name == "counts" else array[..., :used]
        state["facts"] = {name: array[:used] for name, array in self.facts.items()}
        return state

    @classmethod
    def of_state(cls, state: dict[str, Any], strings: Strings) -> Columns:
        columns = cls(state["fields"], strings)
        columns.fingerprints = {fp: f for f, fp in enumerate(state["fingerprints"])}
        for name in cls.ARRAYS:
            setattr(columns, name, np.array(state[name]))
        columns.facts = {name: np.array(array) for name, array in state["facts"].items()}
        columns.slots = {int(page): slot for slot, page in enumerate(columns.page_id.tolist())}
        return columns

    # --- writing --------------------------------------------------------------------------------------

    def _grow(self, pages: int, fingerprints: int) -> None:
        """Room for at least this many slots and fingerprint columns."""
        have_f, have_p = self.present.shape
        if pages <= have_p and fingerprints <= have_f:
            return
        new_p = max(pages, int(have_p * GROWTH) + 16) if pages > have_p else have_p
        new_f = max(fingerprints, have_f)

        def grown(array: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
            bigger = np.zeros(shape, dtype=array.dtype)
            bigger[tuple(slice(0, n) for n in array.shape)] = array
            return bigger

        self.page_id = grown(self.page_id, (new_p,))
        self.batch = grown(self.batch, (new_p,))
        self.facts = {name: grown(array, (new_p,)) for name, array in self.facts.items()}
        self.counts = grown(self.counts, (new_f, new_p, len(self.fields)))
        for name in ("present", "errored", "accepted", "duration"):
            setattr(self, name, grown(getattr(self, name), (new_f, new_p)))

    def reserve(self, pages: int, fingerprints: int) -> None:
        """Room for this many slots and fingerprint columns at once, before storing rows read in bulk
        (each growth copies every array)."""
        self._grow(pages, fingerprints)

    def column_of(self, fingerprint: str) -> int:
        found = self.fingerprints.get(fingerprint)
        if found is None:
            found = self.fingerprints[fingerprint] = len(self.fingerprints)
        return found

    def put(self, rows: Rows, facts: PageFacts) -> None:
        """Store rows read in bulk, with their pages' facts; a row whose page `facts` lacks is left out
        (its gold changed between the two reads: the change log brings it at the next sync)."""
        pages, inverse = np.unique(rows.page_id, return_inverse=True)
        found = facts.find(pages)
        if (found < 0).any():
            kept = (found >= 0)[inverse]
            self.put(rows.where(kept), facts)
            return
        slots_of = self.slots
        for page in [page for page in pages.tolist() if page not in slots_of]:
            slots_of[page] = len(slots_of)
        page_slots = np.fromiter(map(slots_of.__getitem__, pages.tolist()), dtype=np.int64, count=len(pages))
        cols = np.array([self.column_of(fp) for fp in rows.names], dtype=np.int64)[rows.fingerprint]
        slots = page_slots[inverse]
        self._grow(len(slots_of), len(self.fingerprints))
        self.page_id[page_slots] = pages
        self.batch[page_slots] = facts.batch[found]
        for name in PAGE_FACTS:
            self.facts[name][page_slots] = facts.codes[name][found]
        self.counts[cols, slots] = rows.counts
        self.present[cols, slots] = True
        self.errored[cols, slots] = rows.errored
        self.accepted[cols, slots] = rows.accepted
        self.duration[cols, slots] = rows.duration

    def drop(self, pages: Iterable[int]) -> list[tuple[int, str, bool, float]]:
        """Forget these pages' counts; returns the dropped (page, fingerprint, accepted, duration_ms)."""
        names = list(self.fingerprints)
        dropped = []
        for page in pages:
            slot = self.slots.get(page)
            if slot is None:
                continue
            for f in np.flatnonzero(self.present[:, slot]).tolist():
                dropped.append((page, names[f], bool(self.accepted[f, slot]), float(self.duration[f, slot])))
            self.present[:, slot] = False
        return dropped

    # --- reading --------------------------------------------------------------------------------------

    def scored(self) -> dict[str, int]:
        """How many pages each fingerprint has a count of."""
        per = self.present.sum(axis=1)
        return {fp: int(per[f]) for fp, f in self.fingerprints.items()}

    def admitted(self, filters: PageFilter) -> np.ndarray:
        """Per slot, whether its page passes the filter (see PageFilter.admits)."""
        mask = np.ones(len(self.page_id), dtype=bool)
        for name, wanted in (("site", filters.sites), ("type", filters.page_types), ("author", filters.authors)):
            if wanted:
                mask &= np.isin(self.facts[name], self.strings.codes_of(wanted))
        if filters.batches:
            mask &= np.isin(self.batch, np.array(filters.batches, dtype=np.int64))
        return mask

    def aligned_slots(self, fingerprints: Sequence[str], filters: PageFilter) -> np.ndarray:
        """The slots of the admitted pages scored by every fingerprint, by page id."""
        if not fingerprints or any(fp not in self.fingerprints for fp in fingerprints):
            return np.zeros(0, dtype=np.int64)
        cols = [self.fingerprints[fp] for fp in fingerprints]
        mask = self.present[cols].all(axis=0) & self.admitted(filters)
        slots = np.flatnonzero(mask)
        return slots[np.argsort(self.page_id[slots], kind="stable")]

    def has_all(self, page: int, fingerprints: Sequence[str]) -> bool:
        slot = self.slots.get(page)
        return (slot is not None and bool(fingerprints) and all(
            fp in self.fingerprints and self.present[self.fingerprints[fp], slot] for fp in fingerprints))

    def fact(self, name: str, slot: int) -> str:
        return self.strings.names[self.facts[name][slot]]

    def fields_of(self, fingerprint: str, slots: np.ndarray) -> Fields:
        """The fingerprint's fields on these slots' pages (none for a fingerprint with no count yet):
        one float array per field."""
        f = self.fingerprints.get(fingerprint)
        block = np.zeros((0, len(self.fields))) if f is None else self.counts[f, slots]
        return {name: block[:, k] for k, name in enumerate(self.fields)}

    def row_counts(self, fingerprint: str, slot: int) -> dict[str, Any]:
        """One page's counts as the metric's fields (floats) and "errored"."""
        f = self.fingerprints[fingerprint]
        return {**dict(zip(self.fields, self.counts[f, slot].tolist())), "errored": bool(self.errored[f, slot])}

    def per_fingerprint(self, name: str, fingerprint: str, slots: np.ndarray) -> np.ndarray:
        """One per-extraction array (errored, accepted, duration) of a fingerprint on these slots (none for
        a fingerprint with no count yet)."""
        f = self.fingerprints.get(fingerprint)
        array = getattr(self, name)
        return np.zeros(0, dtype=array.dtype) if f is None else array[f, slots]
