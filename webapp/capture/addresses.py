"""Which addresses a fetch made for a user may reach.

By default only public addresses: loopback, private, link-local, multicast, reserved, unspecified and
shared (carrier-grade NAT) addresses are refused, IPv4 and IPv6 alike (an IPv4 address mapped into IPv6
or NAT64 is judged as the IPv4 address it carries); only http and https, and only the ports of
CAPTURE_ALLOWED_PORTS. CAPTURE_ALLOWED_NETWORKS names host names and CIDR ranges that are allowed all
the same (an intranet, a test server), comma-separated.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from urllib.parse import urlsplit

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network
SCHEMES = ("http", "https")
DEFAULT_PORTS = {"http": 80, "https": 443}


class Blocked(ValueError):
    """A URL or an address that a capture may not reach, with the reason."""


@dataclass(frozen=True)
class AddressRules:
    networks: tuple[IPNetwork, ...] = ()
    hosts: frozenset[str] = frozenset()
    ports: frozenset[int] = frozenset({80, 443})

    @classmethod
    def from_settings(cls, allowed: str | list[str] | tuple[str, ...],
                      ports: str | list[int | str] | tuple[int | str, ...]) -> AddressRules:
        """The rules of CAPTURE_ALLOWED_NETWORKS (host names and CIDR ranges) and CAPTURE_ALLOWED_PORTS
        (ports and ranges FIRST-LAST); ValueError naming an entry that is neither."""
        entries = [e.strip() for e in (allowed.split(",") if isinstance(allowed, str) else allowed) if e.strip()]
        networks: list[IPNetwork] = []
        hosts: set[str] = set()
        for entry in entries:
            try:
                networks.append(ipaddress.ip_network(entry, strict=False))
            except ValueError:
                if "/" in entry or not entry.replace("-", "").replace(".", "").isalnum():
                    raise ValueError(f"CAPTURE_ALLOWED_NETWORKS: {entry!r} is neither a host name nor a CIDR range"
                                     ) from None
                hosts.add(entry.lower().rstrip("."))
        numbers: set[int] = set()
        for entry in (ports.split(",") if isinstance(ports, str) else [str(p) for p in ports]):
            low, _, high = entry.strip().partition("-")
            if not low:
                continue
            try:
                first, last = int(low), int(high or low)
            except ValueError:
                raise ValueError(f"CAPTURE_ALLOWED_PORTS: {entry!r} is neither a port nor a range FIRST-LAST"
                                 ) from None
            if not 0 < first <= last < 65536:
                raise ValueError(f"CAPTURE_ALLOWED_PORTS: {entry!r} is outside 1-65535")
            numbers.update(range(first, last + 1))
        if not numbers:
            raise ValueError("CAPTURE_ALLOWED_PORTS names no port")
        return cls(tuple(networks), frozenset(hosts), frozenset(numbers))

    def check_url(self, url: str) -> None:
        """Blocked unless the URL is http(s), names a host, and its port is allowed."""
        try:
            parts = urlsplit(url)
            port = parts.port or DEFAULT_PORTS.get(parts.scheme.lower())
        except ValueError as error:
            raise Blocked(f"not a valid URL ({error})") from None
        if parts.scheme.lower() not in SCHEMES:
            raise Blocked(f"the scheme {parts.scheme or '(none)'!r} is not http or https")
        if not parts.hostname:
            raise Blocked("the URL names no host")
        if parts.username or parts.password:
            raise Blocked("the URL carries a user name or password")
        if port not in self.ports:
            raise Blocked(f"port {port} is not among CAPTURE_ALLOWED_PORTS")

    def check_address(self, host: str, address: str) -> None:
        """Blocked unless `host`, resolved to `address`, may be reached."""
        ip = ipaddress.ip_address(address.split("%", 1)[0])
        if host.lower().rstrip(".") in self.hosts or any(ip in network for network in self.networks):
            return
        reason = refused_kind(ip)
        if reason:
            raise Blocked(f"{host} resolves to {ip}, a {reason} address (CAPTURE_ALLOWED_NETWORKS can allow it)")


def refused_kind(ip: IPAddress) -> str | None:
    """What kind of non-public address `ip` is, or None for a public one."""
    if isinstance(ip, ipaddress.IPv6Address):
        carried = ip.ipv4_mapped or ip.sixtofour or (ip.teredo[1] if ip.teredo else None)
        if carried is None and ip in ipaddress.ip_network("64:ff9b::/96"):
            carried = ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
        if carried is not None:
            return refused_kind(carried)
    for kind in ("loopback", "link_local", "multicast", "unspecified", "reserved", "private"):
        if getattr(ip, f"is_{kind}"):
            return kind.replace("_", "-")
    if isinstance(ip, ipaddress.IPv4Address) and ip in ipaddress.ip_network("100.64.0.0/10"):
        return "shared (carrier-grade NAT)"
    return None if ip.is_global else "non-global"
