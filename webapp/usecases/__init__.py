"""The application layer: one function per action a user can take and per figure a face offers, called
alike by the browser's views, the JSON API, the command line and the job steps (docs/code.md, "Where each
action lives", lists them). Each takes what the settings decide from the object `create_app` builds once
(`webapp/foundation/settings.py`), passed by the face that calls it.

A use case takes a session and never commits (the face that owns the transaction does), receives what the
settings decide as arguments, and knows nothing of Flask. It states its role at its definition and checks
it at each call (`outcome.needs`; a figure states it with `outcome.reads`), appends its audit event
(`outcome.Actor.record`, one of `accounts/audit_actions.Action`), and raises `outcome.Refused` with the HTTP
status and the reason when the action is not allowed, so that every face refuses it alike."""
