"""The application layer: one function per action a user can take, called alike by the browser's views,
the JSON API, the command line and the job steps (save, restore, adjudicate, assign, void). Each takes
what the settings decide from the object `create_app` builds once (`webapp/settings.py`), passed by the
face that calls it.

A use case takes a session and never commits (the face that owns the transaction does), receives what the
settings decide as arguments, and knows nothing of Flask; it raises `outcome.Refused` with the HTTP status
and the reason when the action is not allowed, so that every face refuses it alike."""
