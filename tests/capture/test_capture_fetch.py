"""Fetching for a capture against a local server: robots.txt obeyed with the refusing rule named,
redirects recorded, limits, retries after a 429, and every address rule, after DNS resolution and at
connect time (a local resolver maps test names to addresses; no refused address is ever connected to)."""

from __future__ import annotations

import io
import json
from urllib.parse import urlsplit

import pytest
from capture_server import Handler, capture_server
from warcio.archiveiterator import ArchiveIterator

from webapp.capture.addresses import AddressRules, Blocked
from webapp.capture.capture_run import CaptureRun, Politeness, in_turns
from webapp.capture.fetcher import Fetcher, FetchLimits


def fetcher_for(base: str, names: dict[str, list[str]] | None = None, allowed: str = "127.0.0.1/32",
                **limits) -> Fetcher:
    port = urlsplit(base).port
    mapping = {"127.0.0.1": ["127.0.0.1"], **(names or {})}

    def resolve(host: str, _port: int) -> list[str]:
        return mapping.get(host, [])

    return Fetcher(AddressRules.from_settings(allowed, [80, 443, port]),
                   FetchLimits(**{"timeout": 2.0, "total": 8.0, **limits}), resolve=resolve, sleep=lambda s: None)


def outcomes(base: str, paths: list[str], **kwargs) -> dict[str, object]:
    run = CaptureRun(fetcher_for(base, **kwargs.pop("fetcher", {})), sleep=lambda s: None, **kwargs)
    return {o.url.removeprefix(base): o for o in run.run(list(enumerate(base + p for p in paths)))}


def records(part: bytes) -> list[tuple[str, str, str]]:
    return [(r.rec_type, r.rec_headers.get_header("WARC-Target-URI"),
             r.http_headers.get_statuscode() if r.http_headers else "")
            for r in ArchiveIterator(io.BytesIO(part))]


def test_robots_txt_refuses_with_its_rule_and_the_page_is_never_fetched():
    with capture_server() as base:
        found = outcomes(base, ["/private/secret", "/private/open", "/page"])
        assert "/private/secret" not in Handler.counts
    refused = found["/private/secret"]
    assert (refused.status, refused.kind) == ("refused", "refused by robots")
    assert refused.reason == "Disallow: /private (user-agent: *)"
    assert found["/private/open"].status == "fetched"  # the longer Allow wins
    assert found["/page"].status == "fetched"
    assert Handler.counts["/robots.txt"] == 1  # once per origin


def test_robots_txt_groups_follow_the_user_agent():
    with capture_server() as base:
        found = outcomes(base, ["/page"], fetcher={"agent": "grumpy"})
    assert found["/page"].reason == "Disallow: / (user-agent: grumpy)"


def test_without_robots_the_run_fetches_what_robots_txt_refuses():
    with capture_server() as base:
        found = outcomes(base, ["/private/secret"], obey_robots=False)
        assert "/robots.txt" not in Handler.counts
    assert found["/private/secret"].status == "fetched"


def test_a_redirect_is_followed_and_recorded_in_the_warc_and_the_facts():
    with capture_server() as base:
        found = outcomes(base, ["/redirect"])["/redirect"]
    assert found.status == "fetched" and found.final_url == base + "/page"
    kinds = records(found.part)
    assert ("response", base + "/robots.txt", "200") in kinds
    assert ("response", base + "/redirect", "301") in kinds and ("response", base + "/page", "200") in kinds
    meta = next(r for r in ArchiveIterator(io.BytesIO(found.part)) if r.rec_type == "metadata")
    facts = json.loads(meta.content_stream().read())
    assert facts["redirects"] == [{"url": base + "/redirect", "status": 301}]
    assert facts["robots"]["allowed"] is True and facts["status"] == 200


@pytest.mark.parametrize(("path", "kind"), [
    ("/slow", "timeout"), ("/huge", "too large"), ("/data.json", "not HTML"), ("/missing", "HTTP status"),
    ("/loop", "too many redirects"),
])
def test_each_failure_is_a_report_row_with_its_reason(path, kind):
    with capture_server() as base:
        found = outcomes(base, [path], fetcher={"max_bytes": 100_000, "timeout": 1.0})[path]
    assert (found.status, found.kind) == ("failed", kind), found.reason
    assert found.row()["reason"].startswith(kind + ": ")


def test_a_429_is_retried_after_the_wait_it_asks_for():
    waits = []
    with capture_server() as base:
        run = CaptureRun(fetcher_for(base), sleep=lambda s: None)
        run.fetcher.sleep = waits.append
        found = next(run.run([(0, base + "/busy")]))
    assert found.status == "fetched" and waits == [1.0] and Handler.counts["/busy"] == 2


def test_a_compressed_page_is_kept_as_sent():
    with capture_server() as base:
        found = outcomes(base, ["/gzipped"])["/gzipped"]
    bodies = [(r.http_headers.get_header("Content-Encoding"), r.content_stream().read())
              for r in ArchiveIterator(io.BytesIO(found.part)) if r.rec_type == "response"]
    encoding, body = bodies[-1]
    assert encoding == "gzip" and b"A page sent compressed." in body  # warcio decodes it on reading


@pytest.mark.parametrize(("name", "addresses", "reason"), [
    ("inside.test", ["10.1.2.3"], "private"),
    ("metadata.test", ["169.254.169.254"], "link-local"),
    ("mapped.test", ["::ffff:192.168.0.1"], "private"),
    ("v6-local.test", ["::1"], "loopback"),
    ("multicast.test", ["224.0.0.1"], "multicast"),
    ("half.test", ["127.0.0.1", "10.0.0.9"], "private"),  # one refused address refuses the name
])
def test_a_name_that_resolves_to_a_refused_address_is_never_connected_to(name, addresses, reason):
    with capture_server() as base:
        port = urlsplit(base).port
        run = CaptureRun(fetcher_for(base, {name: addresses}), obey_robots=False, sleep=lambda s: None)
        found = next(run.run([(0, f"http://{name}:{port}/page")]))
        assert Handler.counts == {}
    assert (found.status, found.kind) == ("failed", "blocked address")
    assert reason in found.reason and "CAPTURE_ALLOWED_NETWORKS" in found.reason


def test_loopback_is_refused_unless_allowed_and_a_redirect_cannot_reach_it():
    with capture_server() as base:
        port = urlsplit(base).port
        closed = CaptureRun(fetcher_for(base, allowed=""), obey_robots=False, sleep=lambda s: None)
        assert next(closed.run([(0, base + "/page")])).kind == "blocked address"
        assert Handler.counts == {}
        names = {"public.test": ["127.0.0.1"]}
        opened = CaptureRun(fetcher_for(base, names, allowed="public.test"), obey_robots=False, sleep=lambda s: None)
        hop = next(opened.run([(0, f"http://public.test:{port}/away?to=http://127.0.0.1:{port}/page")]))
        assert Handler.counts == {f"/away?to=http://127.0.0.1:{port}/page": 1}  # the redirect's target: never
    assert hop.kind == "blocked address" and "loopback" in hop.reason


@pytest.mark.parametrize(("url", "reason"), [
    ("file:///etc/passwd", "scheme 'file'"), ("ftp://a.example/x", "scheme 'ftp'"),
    ("http://a.example:22/", "port 22 is not among CAPTURE_ALLOWED_PORTS"),
    ("http://user:pw@a.example/", "user name or password"),
    ("http:///nohost", "names no host"),
])
def test_urls_a_capture_never_fetches(url, reason):
    with pytest.raises(Blocked, match=reason):
        AddressRules.from_settings("", [80, 443]).check_url(url)


def test_allowed_networks_must_be_names_or_ranges():
    rules = AddressRules.from_settings("intranet.example, 10.0.0.0/8, fd00::/8", "80,443,8080")
    rules.check_address("intranet.example", "192.168.3.4")
    rules.check_address("x.example", "10.9.9.9")
    with pytest.raises(Blocked):
        rules.check_address("x.example", "192.168.3.4")
    with pytest.raises(ValueError, match="neither a host name nor a CIDR range"):
        AddressRules.from_settings("10.0.0.0/33", [80])


def test_hosts_take_turns_and_one_host_waits_its_crawl_delay():
    urls = [(0, "http://a.example/1"), (1, "http://a.example/2"), (2, "http://b.example/1")]
    assert [i for i, _ in in_turns(urls)] == [0, 2, 1]
    with capture_server() as base:
        run = CaptureRun(fetcher_for(base), delay=0.0)
        list(run.run([(0, base + "/page"), (1, base + "/other")]))
        assert run.book.crawl_delay(base + "/page") == 0.2  # robots.txt's Crawl-delay
    # The host's next request waits out what is left of its delay since its last one began (a clock of the
    # test's own, not the machine's: a loaded machine must not decide the test).
    now, waits = [10.0], []
    polite = Politeness(0.0, lambda url: 0.2, clock=lambda: now[0], sleep=waits.append)
    polite.wait_for("http://a.example/1", obey_robots=True)
    now[0] += 0.05
    polite.wait_for("http://b.example/1", obey_robots=True)
    polite.wait_for("http://a.example/2", obey_robots=True)
    now[0] += 0.5
    polite.wait_for("http://a.example/3", obey_robots=True)
    assert waits == [pytest.approx(0.15)]
