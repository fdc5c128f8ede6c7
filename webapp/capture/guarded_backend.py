"""The connections of a capture: every one resolved here, checked against the address rules, and made
to the very address that was checked, so that a DNS answer that changes between the check and the
connection (DNS rebinding), or a redirect to another host, reaches no refused address.

httpcore (httpx's transport) asks its network backend for each new connection by host name; this backend
resolves the name once, refuses it if any address it resolves to is refused (a name that also points
inside is refused whole), and connects to the first address. TLS still names the host (SNI and the
certificate check use the URL's host, not the address).
"""

from __future__ import annotations

import socket
from collections.abc import Callable, Iterable
from typing import Any

import httpcore

from .addresses import AddressRules

Resolver = Callable[[str, int], list[str]]
"""A host name and port to the addresses it resolves to (tests pass a mapping of their own)."""


def system_resolver(host: str, port: int) -> list[str]:
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as error:
        raise httpcore.ConnectError(f"DNS: {host} does not resolve ({error.strerror})") from None
    return list(dict.fromkeys(str(info[4][0]) for info in found))


class GuardedBackend(httpcore.SyncBackend):
    def __init__(self, rules: AddressRules, resolve: Resolver = system_resolver) -> None:
        self.rules = rules
        self.resolve = resolve

    def connect_tcp(self, host: str, port: int, timeout: float | None = None, local_address: str | None = None,
                    socket_options: Iterable[Any] | None = None) -> httpcore.NetworkStream:
        addresses = self.resolve(host, port)
        if not addresses:
            raise httpcore.ConnectError(f"DNS: {host} resolves to no address")
        for address in addresses:
            self.rules.check_address(host, address)  # Blocked (a ValueError) goes up through httpx untouched
        return super().connect_tcp(addresses[0], port, timeout=timeout, local_address=local_address,
                                   socket_options=socket_options)

