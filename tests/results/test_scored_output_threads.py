"""A web process's threads building the scored-output queries at once, first thing after the process starts:
every query names the aliases' own columns. SQLAlchemy makes an aliased attribute's SQL on its first use, and
threads making it at once once left one of them the table's own column (`page.scored_rendering` where the join
meant `scored_page.scored_rendering`): every page view of that web process then failed with "no such column"
(seen on SQLite under the serving test's 20 clients). The race shows in a fresh process only, so each round is
one; before the fix about one round in four went wrong."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ROUNDS = 8
THREADS = 16

BUILD_AT_ONCE = f"""
import json, re, sys, threading, warnings
sys.setswitchinterval(1e-6)  # threads switch as often as they can: the race's window at its widest
warnings.simplefilter("error")  # SQLAlchemy warns where it falls back to the table's own column
from sqlalchemy import select
from webapp.extractors.scored_output import FIELDS, scored, with_scored
from webapp.models import Extraction

start = threading.Barrier({THREADS})
made, failed = [], []

def build():
    start.wait()
    try:
        made.append(str(with_scored(select(Extraction.id, *(scored(f) for f in FIELDS)).select_from(Extraction))))
    except Exception as error:
        failed.append(repr(error))

threads = [threading.Thread(target=build) for _ in range({THREADS})]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
bare = sum(bool(re.search(r"(?<![\\w])page\\.scored_rendering", query)) for query in made)
print(json.dumps({{"made": len(made), "failed": failed[:1], "naming_the_table": bare}}))
"""


def test_threads_building_the_scored_output_query_at_once_each_name_the_aliases_columns():
    for _ in range(ROUNDS):
        ran = subprocess.run([sys.executable, "-c", BUILD_AT_ONCE], cwd=ROOT, capture_output=True, text=True,
                             timeout=120, check=True)
        assert json.loads(ran.stdout) == {"made": THREADS, "failed": [], "naming_the_table": 0}, ran.stderr[-2000:]
