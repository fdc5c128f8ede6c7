"""Device cookies (OWASP's "Slow Down Online Guessing Attacks with Device Cookies"): a browser that has
logged in successfully as a user holds a signed cookie naming that user and a random device id. A login
attempt for that user from that browser is throttled by its device's own count, not by the name's, so
guessing a name's password from elsewhere (which makes the name wait, longer and longer) never keeps the
real user out of a browser they have used before. The address's count applies as always.

The cookie is signed with the app's secret key (itsdangerous, as Flask's session is) and holds no
secret: a forged or altered one is an unknown device, and one made for another name counts for nothing
here. A device that fails `LOGIN_MAX_FAILURES` times in a row waits on its own, as a name does.
"""

from __future__ import annotations

import secrets
from datetime import timedelta

from itsdangerous import BadSignature, URLSafeTimedSerializer

from .names import name_key

COOKIE = "goldtext_device"
LIFETIME = timedelta(days=365)  # a device unused this long is unknown again
SALT = "goldtext.device"


def _signer(secret_key: str | bytes) -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(secret_key, salt=SALT)


def device_cookie(secret_key: str | bytes, name: str, device: str | None = None) -> str:
    """The cookie's value for a browser that just logged in as `name` (its device id kept, or a new one)."""
    return _signer(secret_key).dumps({"name": name_key(name), "device": device or secrets.token_urlsafe(16)})


def known_device(secret_key: str | bytes, cookie: str | None, name: str) -> str | None:
    """The device id of a valid, unexpired cookie made for this name, else None (an unknown device)."""
    if not cookie:
        return None
    try:
        found = _signer(secret_key).loads(cookie, max_age=int(LIFETIME.total_seconds()))
    except BadSignature:
        return None
    if not isinstance(found, dict) or found.get("name") != name_key(name) or not isinstance(found.get("device"), str):
        return None
    return found["device"]
