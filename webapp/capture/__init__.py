"""Capture: fetching pages for a user, politely and safely, and keeping what was fetched as a WARC.

`addresses` decides which addresses and ports a fetch may reach (CAPTURE_ALLOWED_NETWORKS opens named
hosts and networks), `guarded_backend` enforces it where the connection is made (after DNS resolution,
for every connection, redirects included), `robots` reads and applies robots.txt (RFC 9309, with
protego), `fetcher` fetches one URL (redirects recorded, retries with backoff, limits), `politeness` keeps
one request at a time per host with its delay, `warc_records` writes what was fetched, and `capture_run`
runs a list of URLs through all of them, one report row per URL. `render` opens a page in headless Chromium
(its requests answered by `browser_requests` under the same rules), `requisites` fetches a page's
stylesheets, fonts and images for its styled snapshot, and `css_references` and `styled_html` find and
rewrite the URLs they load.
"""
