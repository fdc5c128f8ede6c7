"""A captured page opened in headless Chromium (Playwright, Debian's /usr/bin/chromium) and its DOM
serialised once the network is idle or CAPTURE_RENDER_SECONDS have passed, scrolled to its end first when
CAPTURE_RENDER_SCROLL says so (to load what it loads lazily), with a full-page screenshot.

The browser reaches nothing by itself: every request it makes is answered here (`route.fulfill`) by the
capture's own guarded HTTP client (browser_requests.py: the address rules after DNS resolution and at
connect time, the ports and schemes), or refused; the page itself is answered with the very response the
capture fetched, so the rendering is of that response. WebSockets are closed unopened, service workers
and downloads blocked, no extension loaded, and Chromium's own resolver maps every host to nothing, so
that a connection the routing does not see (a preconnect) reaches no address.

Playwright's synchronous API runs in a thread of its own here (it refuses a thread with an event loop, and
a worker's thread may have one), one Chromium per capture run, a fresh context per page.
"""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from .browser_requests import BrowserRequests, Refusal
from .render_limits import RenderLimits

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ("--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run", "--disable-quic", "--host-resolver-rules=MAP * ~NOTFOUND")
VIEWPORT = {"width": 1280, "height": 900}
SCROLL_STEP_MS = 150
MAX_REFUSALS = 50
"""The refused requests a rendering's facts list (the count is always whole)."""


class RenderFailed(Exception):
    """A page that could not be rendered, with the reason (the raw response is kept all the same)."""


@dataclass(frozen=True)
class Rendering:
    html: str
    """The DOM, serialised."""
    screenshot: bytes | None
    """A full-page PNG."""
    facts: dict[str, Any]


@dataclass
class Renderer:
    requests: BrowserRequests
    limits: RenderLimits
    agent: str = "Goldtext"
    _thread: ThreadPoolExecutor = field(default_factory=lambda: ThreadPoolExecutor(1, "goldtext-render"))
    _playwright: Any = None
    _browser: Any = None

    def render(self, url: str, body: bytes, content_type: str) -> Rendering:
        """The rendering of the response (`body`, as decoded of its transfer compression) fetched from `url`."""
        return self._thread.submit(self._render, url, body, content_type).result()

    def close(self) -> None:
        self._thread.submit(self._close).result()
        self._thread.shutdown()

    def _start(self) -> Any:
        if self._browser is None:
            try:
                from playwright.sync_api import sync_playwright
            except ImportError:
                raise RenderFailed("Playwright is not installed (pip install 'goldtext[render]')") from None
            self._playwright = sync_playwright().start()
            try:
                self._browser = self._playwright.chromium.launch(executable_path=CHROMIUM, args=list(CHROMIUM_ARGS))
            except Exception as error:  # Playwright raises its own Error for a missing or broken browser
                raise RenderFailed(f"Chromium does not start ({CHROMIUM}): {error}") from None
        return self._browser

    def _close(self) -> None:
        if self._browser is not None:
            self._browser.close()
        if self._playwright is not None:
            self._playwright.stop()
        self._browser = self._playwright = None

    def _render(self, url: str, body: bytes, content_type: str) -> Rendering:
        browser = self._start()  # first: it names a missing Playwright
        from playwright.sync_api import Error as PlaywrightError
        from playwright.sync_api import TimeoutError as PlaywrightTimeout

        started, deadline = time.monotonic(), time.monotonic() + self.limits.seconds
        refused: list[Refusal] = []
        answered = [0]
        context = browser.new_context(service_workers="block", accept_downloads=False, user_agent=self.agent,
                                      viewport=VIEWPORT)
        try:
            page = context.new_page()
            served_page = [False]

            def answer(route: Any) -> None:
                request = route.request
                if not served_page[0] and request.is_navigation_request() and request.url == url:
                    served_page[0] = True
                    route.fulfill(status=200, body=body, headers={"content-type": content_type})
                    return
                outcome = self.requests.answer(request.method, request.url, request.headers, request.post_data_buffer,
                                               deadline)
                if isinstance(outcome, Refusal):
                    refused.append(outcome)
                    route.abort("blockedbyclient")
                    return
                answered[0] += 1
                route.fulfill(status=outcome.status, headers=outcome.headers, body=outcome.body)

            page.route("**/*", answer)
            page.route_web_socket("**/*", lambda socket: socket.close())
            waited = "network idle"
            try:
                page.goto(url, wait_until="networkidle", timeout=self._left(deadline))
            except PlaywrightTimeout:
                waited = "time limit"
            scrolled = False
            if self.limits.scroll and time.monotonic() < deadline:
                scrolled = True
                try:
                    page.evaluate("""async (step) => {
                        for (let y = 0; y < document.documentElement.scrollHeight && y < 100000; y += innerHeight) {
                          scrollTo(0, y); await new Promise((done) => setTimeout(done, step));
                        }
                        scrollTo(0, 0);
                      }""", SCROLL_STEP_MS)
                    page.wait_for_load_state("networkidle", timeout=self._left(deadline))
                except PlaywrightTimeout:
                    waited = "time limit"
            html = page.content()
            screenshot = page.screenshot(full_page=True, type="png", timeout=max(self._left(deadline), 5000))
        except PlaywrightError as error:
            raise RenderFailed(f"Chromium could not render {url}: {str(error).splitlines()[0]}") from None
        finally:
            context.close()
        facts = {"rendered_at": datetime.now(UTC).isoformat(timespec="seconds"), "waited_for": waited,
                 "seconds": round(time.monotonic() - started, 2), "scrolled": scrolled, "requests": answered[0],
                 "refused": len(refused), "refusals": [r.as_fact() for r in refused[:MAX_REFUSALS]],
                 "browser": f"Chromium {browser.version}"}
        return Rendering(html, screenshot, facts)

    @staticmethod
    def _left(deadline: float) -> float:
        """Milliseconds until the deadline, at least one (Playwright reads 0 as no limit)."""
        return max((deadline - time.monotonic()) * 1000, 1.0)
