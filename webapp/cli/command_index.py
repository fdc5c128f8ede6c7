"""Every top-level `goldtext` command: the module that defines it and the one line `goldtext --help` shows.

`goldtext --help` lists the commands from this table alone, so that it imports no command module (and with
them the whole app); a command's module is imported when the command runs. tests/faces/test_cli.py checks
that the table names every command of every module, each with its own short help.
"""

from __future__ import annotations

from typing import NamedTuple


class Entry(NamedTuple):
    module: str
    """The module under webapp.cli whose COMMANDS holds the command."""
    short_help: str
    """The command's short help (Click's get_short_help_str of its help)."""


COMMANDS: dict[str, Entry] = {
    "agreement": Entry("team", "Agreement between annotators on the double-annotated pages: text F1, type agreement, "
                               "Krippendorff's alpha on the type, snippet agreement, the agreement on the title, "
                               "authors and date, each annotator's F1 against the gold."),
    "assign": Entry("team", "Assign the selected pages that still have a free place (of OVERLAP) to annotators, in "
                            "turn: they come first in their queue, and the place is kept for them."),
    "audit": Entry("audit_commands", "The audit log, oldest first: who changed what, when and from where (`verify` "
                                     "checks its chain)."),
    "capture": Entry("capture_commands", "Capture URLs as a new batch: fetch each one (robots.txt obeyed, one request "
                                         "at a time per host, no private or loopback address unless "
                                         "CAPTURE_ALLOWED_NETWORKS allows it), keep the exchanges as a WARC, import "
                                         "the pages and extract them; print each URL's outcome."),
    "check": Entry("checks_commands", "Check the gold: list each page that fails a check, with the reason, and keep "
                                      "the failures for the Checks page and the queue's filter."),
    "compare": Entry("scores_commands", "Head-to-head of A and B (extractor names, or stored fingerprints): wins, "
                                        "losses, ties, the paired bootstrap difference of F1 (A - B), and whether it "
                                        "is within the annotators' noise."),
    "crawl-report": Entry("crawl", "Print the report of a crawl run (the output folder of an exported pipeline): "
                                   "documents per extractor and page type, timeouts and errors, the agreement with the "
                                   "challenger, throughput per task; and write it as a card (CRAWL_REPORT.md) in that "
                                   "folder."),
    "db": Entry("database", "Schema migrations (applied automatically on first use too)."),
    "demo": Entry("demo", "Load the bundled demo corpus (idempotent), extract it, and start the app (with the "
                          "embedded worker unless a broker is configured)."),
    "export": Entry("export_commands", "Export pages and their gold (jsonl, folder, scrapinghub, trafilatura-eval, "
                                       "wcxb, wceb), scores (csv), or the leaderboard's choice as a runnable datatrove "
                                       "pipeline (datatrove)."),
    "extract": Entry("extract_commands", "Run extractors on the stored pages (only what is missing for their current "
                                         "fingerprints, and calls that crashed or timed out, up to 3 attempts), then "
                                         "cache the new extractions' scores against the gold and measure the pages' "
                                         "disagreement."),
    "extractors": Entry("extract_commands", "The registered extractors, the user-defined variants and compositions; "
                                            "without a subcommand, `list`."),
    "guard": Entry("scores_commands", "The accept guard against the gold page types: confusion matrix per extractor "
                                      "against the types to accept (GUARD_ACCEPT_TYPES), and the acceptance rate per "
                                      "site and per import batch."),
    "guidelines": Entry("guidelines_commands", "Each page type's guideline (what is main content for that type) as "
                                               "Markdown files."),
    "import": Entry("corpus", "Import saved pages (folder, zip, WARC, JSONL, Readability test pages, or any folder "
                              "`goldtext export` wrote), or with --datatrove a stratified sample of a crawl's "
                              "documents as a batch to annotate."),
    "jobs": Entry("jobs_commands", "List jobs (extraction runs, uploads, exports, refreshes), newest first, or cancel "
                                   "one."),
    "pages": Entry("figures_commands", "EXTRACTOR's scored pages (a name, or a stored fingerprint), worst F1 first: "
                                       "page, site, precision, recall, F1; the leaderboard's pages view."),
    "rules": Entry("extract_commands", "Per-site CSS rules of the site-rules extractor."),
    "run": Entry("serve", "Start the app on what is stored (development server, one process)."),
    "score": Entry("scores_commands", "Score every extractor against the gold (done pages of every type with main "
                                      "content)."),
    "serve": Entry("serve", "Serve the app with gunicorn: several web processes, for a team (see the Deployment "
                            "guide)."),
    "sites": Entry("figures_commands", "Per site and per page type with main content: its gold pages, each "
                                       "extractor's F1, and the best extractor where the pages are enough to judge "
                                       "(LEADERBOARD_MIN_SITE_PAGES) and the bootstrap separates it; the Sites page's "
                                       "table."),
    "structure-tests": Entry("structure_commands", "List the structure tests generated from each page's Markdown gold "
                                                   "as JSON Lines, one test a line: page_id, url, id, kind, "
                                                   "description, expected, and passed (extractor -> whether its "
                                                   "newest extraction passes the test) for the extractors asked for "
                                                   "(empty without --extractor)."),
    "users": Entry("users_commands", "Accounts: add users, set their role, disable them, give API tokens."),
    "worker": Entry("jobs_commands", "Run jobs: take chunks from the broker until stopped (Ctrl+C or SIGTERM finish "
                                     "the running chunks first)."),
}
