"""A local HTTP server for the capture tests: robots.txt rules, pages, redirects, slow, huge and
non-HTML answers, a 429 that asks to wait, and a page whose article only JavaScript writes."""

from __future__ import annotations

import gzip
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

ROBOTS = (b"User-agent: *\nDisallow: /private\nAllow: /private/open\nCrawl-delay: 0.2\n\n"
          b"User-agent: grumpy\nDisallow: /\n")


def page(title: str, body: str) -> bytes:
    return (f"<!doctype html><html><head><meta charset='utf-8'><title>{title}</title></head><body>"
            f"<nav>Home | News</nav><article><h1>{title}</h1><p>{body}</p></article></body></html>").encode()


class Handler(BaseHTTPRequestHandler):
    counts: dict[str, int] = {}
    log: list[tuple[str, float]] = []

    def log_message(self, *args) -> None:  # quiet
        pass

    def send(self, status: int, body: bytes, kind: str = "text/html; charset=utf-8", **headers: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        for name, value in headers.items():
            self.send_header(name.replace("_", "-"), value)
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self) -> None:  # http.server's name
        path = self.path
        Handler.counts[path] = Handler.counts.get(path, 0) + 1
        Handler.log.append((path, time.monotonic()))
        if path == "/robots.txt":
            self.send(200, ROBOTS, "text/plain")
        elif path in ("/page", "/private/open", "/other"):
            self.send(200, page("Harbour ferry returns", f"The ferry at {path} runs again from June."))
        elif path == "/gzipped":
            self.send(200, gzip.compress(page("Packed", "A page sent compressed.")), Content_Encoding="gzip")
        elif path == "/private/secret":
            self.send(200, page("Secret", "Never fetched."))
        elif path == "/redirect":
            self.send(301, b"", Location="/page")
        elif path == "/loop":
            self.send(302, b"", Location="/loop")
        elif path.startswith("/away"):
            self.send(302, b"", Location=path.split("?to=", 1)[1])
        elif path == "/slow":
            time.sleep(3)
            self.send(200, page("Slow", "Too late."))
        elif path == "/huge":
            self.send(200, b"<html><body><p>" + b"x" * 300_000 + b"</p></body></html>")
        elif path == "/data.json":
            self.send(200, b'{"a": 1}', "application/json")
        elif path == "/busy":
            if Handler.counts[path] == 1:
                self.send(429, b"slow down", "text/plain", Retry_After="1")
            else:
                self.send(200, page("Patience", "Served on the second try."))
        elif path == "/missing":
            self.send(404, b"<html><body>Not here</body></html>")
        else:
            self.send(404, b"no")


@contextmanager
def capture_server() -> Iterator[str]:
    """The server's base URL (http://127.0.0.1:PORT), its counters reset."""
    Handler.counts = {}
    Handler.log = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
