"""Results: the database side of the figures. The score store (cached per-page counts and their change
log), the leaderboard's in-process cache, head-to-head, and the guard, drift, site-rule and site reports.
Services take a session and never commit; nothing here knows Flask."""
