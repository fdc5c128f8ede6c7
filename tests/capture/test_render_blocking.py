"""What a rendering in Chromium (`goldtext capture --render`) must not do, proven against servers the test starts:
a page's service worker does not register, a download it starts is not saved anywhere, no connection reaches an
address the capture does not allow (a listener on 127.0.0.2, loopback but outside CAPTURE_ALLOWED_NETWORKS, counts
every connection made to it: requests, preconnects, prefetches, WebSockets, beacons), and no extension is loaded."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from served import served

from webapp.capture.browser_requests import BrowserRequests
from webapp.capture.fetcher import Fetcher
from webapp.capture.render import Renderer
from webapp.foundation.settings import settings_of

pytestmark = [pytest.mark.browser, pytest.mark.security,
              pytest.mark.settings(CAPTURE_ALLOWED_NETWORKS=["127.0.0.1/32"], CAPTURE_ALLOWED_PORTS=["1024-65535"],
                                   CAPTURE_TIMEOUT_SECONDS=2.0, CAPTURE_RENDER_SECONDS=10.0,
                                   CAPTURE_RENDER_SCROLL=False)]

MARKER = b"GOLDTEXT-DOWNLOADED-BYTES-7f3a"
SERVICE_WORKER = b"self.addEventListener('fetch', () => {});"


def page(forbidden: str) -> bytes:
    """A page that tries everything at once: register a service worker, download a file, and reach the forbidden
    address every way a page can (the address as an IP literal: no resolver stands in the way)."""
    return f"""<!doctype html><html><head><meta charset="utf-8"><title>Blocked</title>
<link rel="preconnect" href="http://{forbidden}"><link rel="dns-prefetch" href="http://{forbidden}">
<link rel="prefetch" href="http://{forbidden}/prefetch"><link rel="stylesheet" href="http://{forbidden}/site.css">
</head><body><p id="worker">pending</p><p>The ferry runs again.</p>
<img src="http://{forbidden}/pixel.gif"><iframe src="http://{forbidden}/frame"></iframe>
<script>
const say = (text) => {{ document.getElementById("worker").textContent = text; }};
const register = (container) => ServiceWorkerContainer.prototype.register.call(container, "/sw.js");
if (!navigator.serviceWorker) say("no service worker API");
else register(navigator.serviceWorker).then(() => navigator.serviceWorker.getRegistrations())
  .then((found) => say(found.length ? "registered" : "not registered"), (error) => say("refused: " + error.name));
fetch("http://{forbidden}/fetch", {{mode: "no-cors"}}).catch(() => {{}});
try {{ new WebSocket("ws://{forbidden}/socket"); }} catch (error) {{}}
try {{ new EventSource("http://{forbidden}/events"); }} catch (error) {{}}
navigator.sendBeacon("http://{forbidden}/beacon", "x");
const link = document.createElement("a");
link.href = "/report.bin"; link.download = "report.bin"; document.body.append(link); link.click();
</script></body></html>""".encode()


class Site(BaseHTTPRequestHandler):
    asked: list[str] = []
    forbidden = ""

    def log_message(self, *args) -> None:  # quiet
        pass

    def do_GET(self) -> None:  # http.server's name
        Site.asked.append(self.path)
        if self.path == "/sw.js":
            body, headers = SERVICE_WORKER, {"Content-Type": "text/javascript"}
        elif self.path == "/report.bin":
            body, headers = MARKER * 64, {"Content-Type": "application/octet-stream",
                                          "Content-Disposition": 'attachment; filename="report.bin"'}
        else:
            body, headers = page(Site.forbidden), {"Content-Type": "text/html; charset=utf-8"}
        self.send_response(200)
        for name, value in {**headers, "Content-Length": str(len(body))}.items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)


@contextmanager
def listener(host: str) -> Iterator[tuple[str, list[bytes]]]:
    """A TCP listener at host on a free port: ("host:port", what each connection made to it sent first)."""
    server = socket.create_server((host, 0))
    server.settimeout(0.2)
    connections: list[bytes] = []
    stop = threading.Event()

    def accept() -> None:
        while not stop.is_set():
            try:
                conn, _ = server.accept()
            except TimeoutError:
                continue
            with conn:
                conn.settimeout(0.5)
                try:
                    connections.append(conn.recv(200))
                except OSError:
                    connections.append(b"")

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        yield f"{host}:{server.getsockname()[1]}", connections
    finally:
        stop.set()
        thread.join()
        server.close()


@pytest.fixture
def rendered(app, tmp_path_factory, monkeypatch):
    """The page rendered by the capture's Renderer (its own Chromium, TMPDIR and HOME in a folder of the test):
    (the rendering, the forbidden listener's connections, the folder, the renderer's browser command line)."""
    home = tmp_path_factory.mktemp("browser-home")
    monkeypatch.setenv("TMPDIR", str(home))
    monkeypatch.setenv("HOME", str(home))
    settings = settings_of(app).capture
    fetcher = Fetcher(settings.rules, settings.limits)
    renderer = Renderer(BrowserRequests(fetcher), settings.render, settings.limits.agent)
    Site.asked = []
    try:
        with served(ThreadingHTTPServer(("127.0.0.1", 0), Site)) as server, \
                listener("127.0.0.2") as (forbidden, connections):
            Site.forbidden = forbidden
            url = f"http://127.0.0.1:{server.server_port}/blocked"
            rendering = renderer.render(url, page(forbidden), "text/html; charset=utf-8")
            # What the renderer's own Chromium says of itself, asked in the renderer's thread (Playwright's).
            command, targets = renderer._thread.submit(browser_facts, renderer, home).result()
        yield rendering, connections, home, command, targets
    finally:
        renderer.close()
        fetcher.close()


def browser_facts(renderer: Renderer, home: Path) -> tuple[list[str], list[dict]]:
    """The running browser's command line (its process's: the one whose profile is in `home`, not a child of it)
    and its targets, through the DevTools protocol."""
    targets = renderer._start().new_browser_cdp_session().send("Target.getTargets")["targetInfos"]
    commands = []
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            arguments = cmdline.read_bytes().decode(errors="replace").split("\0")
        except OSError:  # a process that ended meanwhile
            continue
        if any(a.startswith(f"--user-data-dir={home}") for a in arguments) and not any(
                a.startswith("--type=") for a in arguments):
            commands.append(arguments)
    assert len(commands) == 1, commands
    return commands[0], targets


def test_a_service_worker_does_not_register(rendered):
    rendering, *_ = rendered
    assert 'id="worker">not registered<' in rendering.html  # register() called past Playwright's own override
    assert "/sw.js" not in Site.asked  # the worker's script was never even fetched


def test_a_download_is_not_saved(rendered):
    rendering, _, home, *_ = rendered
    assert "/report.bin" not in Site.asked and rendering.facts["requests"] == 0  # not even fetched
    saved = [path for path in Path(home).rglob("*") if path.is_file() and MARKER in path.read_bytes()]
    assert saved == []
    assert not any(Path(home).rglob("report.bin"))


def test_no_connection_reaches_an_address_the_capture_does_not_allow(rendered):
    rendering, connections, *_ = rendered
    assert connections == []
    refused = {refusal["url"].split("/", 3)[-1] for refusal in rendering.facts["refusals"]}
    assert {"pixel.gif", "site.css", "fetch"} <= refused  # the page asked for them: the capture refused each


def test_no_extension_is_loaded(rendered):
    """Debian's chromium wrapper adds --enable-remote-extensions and an empty --load-extension= (its defaults in
    /etc/chromium.d); Playwright adds --disable-extensions, and nothing names an extension to load."""
    *_, command, targets = rendered
    assert "chromium" in command[0] and "--disable-extensions" in command
    assert [a for a in command if a.startswith("--load-extension=") and a != "--load-extension="] == []
    assert [t["url"] for t in targets if t["url"].startswith("chrome-extension://")] == []
    profile = Path(next(a for a in command if a.startswith("--user-data-dir=")).split("=", 1)[1])
    assert not any((profile / "Default" / "Extensions").glob("*"))
