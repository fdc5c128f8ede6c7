"""What the settings decide of a capture (CAPTURE_*), read and checked when the app starts
(webapp/foundation/settings.py): a wrong entry of CAPTURE_ALLOWED_NETWORKS or CAPTURE_ALLOWED_PORTS stops the start,
naming it."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from .addresses import AddressRules
from .fetcher import FetchLimits
from .render_limits import RenderLimits


@dataclass(frozen=True)
class CaptureSettings:
    rules: AddressRules
    limits: FetchLimits
    delay: float  # CAPTURE_DELAY_SECONDS: the least wait between two requests to one host
    max_urls: int  # CAPTURE_MAX_URLS: the most URLs one capture takes
    render: RenderLimits = RenderLimits()  # CAPTURE_RENDER_*: how long a rendering waits, and whether it scrolls
    style_max_bytes: int = 5 * 2**20  # CAPTURE_STYLE_MAX_BYTES: the most bytes of a page's stylesheets, fonts, images

    def record(self, obey_robots: bool) -> dict[str, Any]:
        """The settings a capture ran with, as its WARC's warcinfo names them."""
        return {"user_agent": self.limits.agent, "robots_txt": "obeyed" if obey_robots else "not obeyed",
                "delay_seconds": self.delay, **{k: v for k, v in asdict(self.limits).items() if k != "agent"},
                "allowed_networks": sorted(str(n) for n in self.rules.networks) + sorted(self.rules.hosts),
                "allowed_ports": sorted(self.rules.ports), "render_seconds": self.render.seconds,
                "render_scroll": self.render.scroll, "style_max_bytes": self.style_max_bytes}
