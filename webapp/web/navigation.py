"""The top navigation: the app's pages grouped by what a person comes to do (annotate, review, read the
results, bring data in and out, run the team), each link shown to the roles that may open it, the section
and the page of the current request marked."""

from __future__ import annotations

from dataclasses import dataclass

from flask import Flask, request

from ..accounts.roles import ADMIN, ANNOTATOR, REVIEWER, at_least


@dataclass(frozen=True)
class Link:
    label: str
    endpoint: str
    role: str = ANNOTATOR
    """The least role that sees the link (everyone who has a role sees an annotator's)."""

    @property
    def blueprint(self) -> str:
        return self.endpoint.split(".", 1)[0]


@dataclass(frozen=True)
class Section:
    label: str
    links: tuple[Link, ...]
    also: tuple[str, ...] = ()
    """Blueprints of pages reached from the section's links (the annotate view from the queue)."""


SECTIONS = (
    Section("Annotate", (Link("Queue", "queue.index"), Link("Guidelines", "guidelines.index")),
            also=("annotate", "pages")),
    Section("Review", (Link("Adjudicate", "adjudication.index", REVIEWER), Link("Reviewed", "reviewed.index"),
                       Link("Checks", "checks.index", REVIEWER), Link("Agreement", "agreement.index", REVIEWER))),
    Section("Results", (Link("Leaderboard", "leaderboard.index"), Link("Sites", "sites.index"),
                        Link("Effort", "effort.index"))),
    Section("Data", (Link("Import", "upload.form", ADMIN), Link("Add URLs", "capture.form", ADMIN),
                     Link("Export", "exports.form", ADMIN),
                     Link("Extractors", "extractors.index"), Link("Jobs", "jobs.index"))),
    Section("Team", (Link("Lead's console", "console.index", REVIEWER), Link("Users", "accounts.users", ADMIN),
                     Link("Audit", "audit.index", ADMIN))),
)


@dataclass(frozen=True)
class Shown:
    label: str
    current: bool
    links: tuple[tuple[Link, bool], ...]
    """Each link the role sees, and whether it is the current page's."""


def navigation(role: str | None) -> list[Shown]:
    """The sections and links `role` sees, the current ones marked; sections with no link left out."""
    blueprint = request.blueprint or ""
    shown = []
    for section in SECTIONS:
        links = tuple((link, link.blueprint == blueprint) for link in section.links if at_least(role, link.role))
        if links:
            current = blueprint in section.also or any(mark for _, mark in links)
            shown.append(Shown(section.label, current, links))
    return shown


def init_navigation(app: Flask) -> None:
    app.add_template_global(navigation, "navigation")
