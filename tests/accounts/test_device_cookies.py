"""A lockout by name cannot keep the real user out (OWASP's device cookies): the attack of issue 34 (about
15 wrong passwords spread over 17 minutes, then one every 15 minutes, timed by the throttle's clock) makes
the name wait ever longer for unknown browsers, while Ada logs in at once from a browser she has used
before, and from a new one after the wait the page names; a device cookie counts for its own name only and
is refused when altered; an address's own allowance still applies to a known browser."""

from __future__ import annotations

from datetime import timedelta

import pytest
from app_settings import reconfigure
from workbench import PASSWORD, add_account, csrf

from webapp.accounts import devices
from webapp.accounts.roles import ADMIN, ANNOTATOR
from webapp.models import User, utcnow
from webapp.views.accounts import wait_text

pytestmark = pytest.mark.security

WINDOW = timedelta(minutes=15)  # LOGIN_WINDOW_MINUTES's default


@pytest.fixture
def ada(session) -> User:
    return add_account(session, "Ada", ADMIN)


@pytest.fixture
def clock(monkeypatch):
    from webapp.accounts import throttle

    class Clock:
        now = utcnow()

    monkeypatch.setattr(throttle, "utcnow", lambda: Clock.now)
    return Clock


def attempt(client, name: str, password: str, address: str):
    return client.post("/login", data={"name": name, "password": password, "csrf_token": csrf(client)},
                       environ_base={"REMOTE_ADDR": address})


def test_the_attack_of_issue_34_keeps_unknown_browsers_waiting_longer_and_longer_but_not_ada_s(app, ada, clock):
    own = app.test_client()  # Ada's browser, logged in with before the attack
    assert attempt(own, "Ada", PASSWORD, "192.0.2.10").status_code == 302
    cookie = own.get_cookie(devices.COOKIE)
    assert cookie is not None and cookie.http_only and cookie.same_site == "Lax"
    attacker = app.test_client()
    checked = 0
    for number in range(15):  # 15 wrong passwords over 17 minutes, from three addresses
        clock.now += timedelta(seconds=68)
        checked += attempt(attacker, "Ada", f"guess {number}", f"203.0.113.{number % 3}").status_code == 200
    waits = []  # the wait each guess let through left behind
    for number in range(16):  # then one every 15 minutes, for four hours
        clock.now += timedelta(minutes=15)
        if attempt(attacker, "Ada", f"late guess {number}", "203.0.113.9").status_code == 200:
            checked += 1
            waits.append(int(attempt(attacker, "Ada", "again", "203.0.113.9").headers["Retry-After"]))
        # whenever she comes, Ada's own browser gets in at once
        assert attempt(own, "Ada", PASSWORD, "192.0.2.10").status_code == 302, number
    # each guess let through doubles the wait for unknown browsers, past the window: 5 of the 16 late ones
    # got a password checked in four hours (before, each of the 16 did and the wait stayed at the window)
    assert waits == [2**n for n in range(9, 14)], waits  # 8.5 min, 17 min, 34 min, 68 min, 2 h 16 min
    assert waits[-1] > 8 * WINDOW.total_seconds() and checked == 18
    after = attempt(attacker, "Ada", "one more", "203.0.113.9")
    assert after.status_code == 429  # ... and the name still waits for unknown browsers

    new = app.test_client()  # Ada on a browser she never used: the wait the page names, then in
    refused = attempt(new, "Ada", PASSWORD, "192.0.2.20")
    assert refused.status_code == 429
    wait = int(refused.headers["Retry-After"])
    assert f"wait {wait_text(timedelta(seconds=wait))} and try again" in refused.get_data(as_text=True)
    clock.now += timedelta(seconds=wait)
    assert attempt(new, "Ada", PASSWORD, "192.0.2.20").status_code == 302
    assert new.get_cookie(devices.COOKIE) is not None  # from now on a known browser too


def test_a_device_cookie_counts_for_its_own_name_only_and_not_when_altered(app, session, ada, clock):
    reconfigure(app, LOGIN_MAX_FAILURES=2)
    add_account(session, "Ann", ANNOTATOR)
    own = app.test_client()
    assert attempt(own, "Ada", PASSWORD, "192.0.2.10").status_code == 302
    value = own.get_cookie(devices.COOKIE).value
    for _ in range(2):  # both names wait for unknown browsers
        attempt(app.test_client(), "Ada", "wrong", "203.0.113.1")
        attempt(app.test_client(), "Ann", "wrong", "203.0.113.1")
    assert attempt(own, "Ann", PASSWORD, "192.0.2.10").status_code == 429  # Ada's cookie is not Ann's
    altered = app.test_client()
    altered.set_cookie(devices.COOKIE, value[:-2] + ("AA" if not value.endswith("AA") else "BB"))
    assert attempt(altered, "Ada", PASSWORD, "192.0.2.10").status_code == 429
    assert attempt(own, "Ada", PASSWORD, "192.0.2.10").status_code == 302


def test_a_known_browser_fails_on_its_own_count_and_keeps_its_address_s(app, ada, clock):
    """A known browser that keeps failing waits on its own; and an address that has used up its allowance
    waits whatever browser comes from it."""
    reconfigure(app, LOGIN_MAX_FAILURES=2)
    own = app.test_client()
    assert attempt(own, "Ada", PASSWORD, "192.0.2.10").status_code == 302
    for _ in range(2):
        assert attempt(own, "Ada", "typo", "192.0.2.10").status_code == 200
    assert attempt(own, "Ada", PASSWORD, "192.0.2.10").status_code == 429  # the device's own wait
    assert attempt(app.test_client(), "Ada", PASSWORD, "192.0.2.11").status_code == 302  # the name is free
    clock.now += timedelta(seconds=1)
    assert attempt(own, "Ada", PASSWORD, "192.0.2.10").status_code == 302

    for number in range(8):  # the address's allowance: four times the name's
        attempt(app.test_client(), f"someone {number}", "wrong", "198.51.100.7")
    assert attempt(own, "Ada", PASSWORD, "198.51.100.7").status_code == 429
