"""Every action the audit log records: the one list of them (`Action`), so that an action is typed once and
`goldtext audit --action` and the /audit page's filter name what is there. An event is appended only by
`audit_log.record`, which takes an `Action`; the faces and the use cases reach it through
`usecases/outcome.py` `Actor.record` (the login steps in accounts/login.py call it themselves, as they
act before anyone is known)."""

from __future__ import annotations

from enum import StrEnum


class Action(StrEnum):
    """The audit log's actions; a family shares the prefix before its "." ("user." for every user change)."""

    LOGIN = "login"
    LOGIN_FAILED = "login.failed"
    LOGOUT = "logout"
    USER_ADD = "user.add"
    USER_ROLE = "user.role"
    USER_DISABLE = "user.disable"
    USER_ENABLE = "user.enable"
    USER_PASSWORD = "user.password"
    USER_TOKEN = "user.token"
    USER_REVOKE_TOKENS = "user.revoke-tokens"
    USER_LOGOUT_ALL = "user.logout-all"
    USER_UNLOCK = "user.unlock"
    GOLD_SAVE = "gold.save"
    GOLD_RESTORE = "gold.restore"
    ADJUDICATE = "adjudicate"
    ANNOTATION_VOID = "annotation.void"
    ASSIGN = "assign"
    UNASSIGN = "unassign"
    REASSIGN = "reassign"
    ASSIGN_UNDO = "assign.undo"
    COMMENT = "comment"
    CHANGES_REQUEST = "changes.request"
    CONTROL_MAKE = "control.make"
    CONTROL_GIVE = "control.give"
    CONTROL_END = "control.end"
    TABS_ARRANGE = "tabs.arrange"
    GUIDELINE_SAVE = "guideline.save"
    IMPORT = "import"
    IMPORT_DROPPED = "import.dropped"
    CAPTURE = "capture"
    EXPORT = "export"
    EXTRACT = "extract"
    CHECK = "check"
    REFRESH = "refresh"
    JOB_CANCEL = "job.cancel"
    RULE_SET = "rule.set"
    RULE_DELETE = "rule.delete"
    VARIANT_ADD = "variant.add"
    VARIANT_REMOVE = "variant.remove"
    COMPOSITION_ADD = "composition.add"
    COMPOSITION_REMOVE = "composition.remove"
    PAGE_SCORED_RENDERING = "page.scored_rendering"
