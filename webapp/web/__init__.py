"""The web face's shared parts: security (CSRF, content security policy), SVG charts, and the composition
of the figures the leaderboard views and the JSON API show."""
