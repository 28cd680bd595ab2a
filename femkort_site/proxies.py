"""Whose address a request or socket comes from: the socket's peer, unless the operator said how
many reverse proxies stand in front (``DJANGO_PROXY_COUNT``).

Each proxy appends the address it saw to ``X-Forwarded-For``; the last proxy is the peer. With
N proxies the client is therefore the N-th entry from the right, and anything further left was
written by the client and is ignored. With no proxy configured the header is ignored altogether:
a client reaching daphne directly could write anything there (daphne's own ``--proxy-headers``
takes the left-most entry, the client's own, so the site never passes it).

Login throttling, socket limits and the table's presence rows all read the address from here
(for HTTP, Django's ``REMOTE_ADDR`` is set by ``ClientAddressMiddleware``).
"""

from __future__ import annotations

import ipaddress

from django.conf import settings
from django.http import HttpRequest

from .security import RequestStep


def client_address(peer: str | None, forwarded_for: str) -> str | None:
    """The client's address, from the socket's ``peer`` and the ``X-Forwarded-For`` it sent."""
    proxies = settings.PROXY_COUNT
    if proxies <= 0 or not forwarded_for:
        return peer
    entries = [entry.strip() for entry in forwarded_for.split(",") if entry.strip()]
    if len(entries) < proxies:
        return peer  # it did not come through every proxy
    candidate = entries[-proxies]
    try:
        return str(ipaddress.ip_address(candidate))
    except ValueError:
        return peer


def scope_client_address(scope: dict) -> str | None:
    """The same for a websocket's ASGI scope (several header lines are one list, as HTTP says)."""
    peer = (scope.get("client") or [None])[0]
    forwarded = ",".join(
        value.decode("latin-1") for name, value in scope.get("headers") or () if name.lower() == b"x-forwarded-for"
    )
    return client_address(peer, forwarded)


class ClientAddressMiddleware(RequestStep):
    """``REMOTE_ADDR`` becomes the client's address before anything reads it (first in the list)."""

    @staticmethod
    def step(request: HttpRequest) -> None:
        address = client_address(request.META.get("REMOTE_ADDR"), request.META.get("HTTP_X_FORWARDED_FOR", ""))
        if address:
            request.META["REMOTE_ADDR"] = address
