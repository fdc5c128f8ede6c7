"""A stratified sample of a crawl's documents, to bring back as a batch to annotate.

The documents are grouped by stratum (their page type, or their site; one stratum without `by`), and the sample
is shared among the strata in proportion to their size (largest remainders). Within a stratum the documents
taken are those of lowest agreement between the extractor and its challenger (`lowest_agreement`: where the
crawl's extraction is least certain; a document without an agreement figure comes last), those whose
rs-trafilatura's predicted extraction quality is lowest (`lowest_quality`: where it expects its own extraction to
be worst; the crawl records it where rs-trafilatura is the extractor or the challenger, and a document without
one comes last), or a seeded random choice. Only documents whose HTML was kept can be imported: the others are
never sampled.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ..corpus.datatrove_output import Position
from ..corpus.site_names import UNKNOWN_SITE, host_of
from ..extractors.with_rust import QUALITY

STRATA = ("type", "site")


@dataclass(frozen=True)
class Candidate:
    position: Position
    stratum: str
    agreement: float | None
    quality: float | None = None  # rs-trafilatura's predicted extraction quality, where the crawl recorded it


def stratum_of(meta: Mapping[str, Any], by: str | None) -> str:
    if by == "type":
        return str(meta.get("page_type") or "")
    if by == "site":
        return (host_of(meta["url"]) if isinstance(meta.get("url"), str) else None) or UNKNOWN_SITE
    return ""


def candidates(records: Iterable[tuple[Position, Mapping[str, Any]]], by: str | None) -> list[Candidate]:
    """The documents that can be sampled (their HTML kept), from (position, record) pairs."""
    if by not in (None, *STRATA):
        raise ValueError(f"--by must be one of {', '.join(STRATA)}, not {by!r}")
    found = []
    for position, record in records:
        meta = record["metadata"]
        if not isinstance(meta.get("html_base64"), str):
            continue
        agreement, quality = meta.get("agreement"), meta.get(QUALITY)
        found.append(Candidate(position, stratum_of(meta, by),
                               float(agreement) if isinstance(agreement, (int, float)) else None,
                               float(quality) if isinstance(quality, (int, float)) else None))
    return found


def shares(sizes: Mapping[str, int], total: int) -> dict[str, int]:
    """How many documents each stratum gives: its quota (the sample times its part of the documents), rounded down,
    the rest one each to the largest remainders (Hamilton's method). A quota never exceeds what a stratum holds."""
    pool = sum(sizes.values())
    wanted = min(total, pool)
    if not wanted:
        return dict.fromkeys(sizes, 0)
    quotas = {stratum: wanted * size / pool for stratum, size in sizes.items()}
    given = {stratum: int(quota) for stratum, quota in quotas.items()}
    order = sorted(sizes, key=lambda s: (-(quotas[s] - given[s]), s))
    for stratum in order[:wanted - sum(given.values())]:
        given[stratum] += 1
    return given


def sample(pool: list[Candidate], size: int, lowest_agreement: bool = False, seed: int = 0,
           lowest_quality: bool = False) -> list[Candidate]:
    """The sample: per stratum its share, lowest agreement or lowest predicted quality first, or at random; in the
    order of the output."""
    strata: dict[str, list[Candidate]] = defaultdict(list)
    for candidate in pool:
        strata[candidate.stratum].append(candidate)
    counts = shares({s: len(c) for s, c in strata.items()}, size)
    rng = random.Random(seed)
    chosen: list[Candidate] = []
    for stratum, members in sorted(strata.items()):
        if lowest_agreement:
            ordered = sorted(members, key=lambda c: (c.agreement is None, c.agreement or 0.0, c.position))
        elif lowest_quality:
            ordered = sorted(members, key=lambda c: (c.quality is None, c.quality or 0.0, c.position))
        else:
            ordered = rng.sample(members, len(members))
        chosen += ordered[:counts[stratum]]
    return sorted(chosen, key=lambda c: c.position)
