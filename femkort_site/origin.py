"""Websockets carry the session cookie, so a page elsewhere must not open one in a player's name.

The check mirrors Django's CSRF origin check: the Origin must be this site itself (scheme,
host and port; the host one of ``ALLOWED_HOSTS``, the scheme https when the socket came
over TLS, directly or through a proxy that says so in ``SECURE_PROXY_SSL_HEADER``) or one of
``CSRF_TRUSTED_ORIGINS``. Channels' ``AllowedHostsOriginValidator`` compares the host only.
"""

from __future__ import annotations

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port, validate_host


class SameOriginWebsockets:
    def __init__(self, application):
        self.application = application

    async def __call__(self, scope, receive, send):
        if scope["type"] == "websocket" and not origin_allowed(scope):
            return await WebsocketDenier()(scope, receive, send)
        return await self.application(scope, receive, send)


def origin_allowed(scope: dict) -> bool:
    headers = {name.lower(): value.decode("latin1") for name, value in scope.get("headers", [])}
    origin = headers.get(b"origin", "")
    if not origin:
        return False
    if origin in settings.CSRF_TRUSTED_ORIGINS:
        return True
    host = headers.get(b"host", "")
    domain, _ = split_domain_port(host)
    if not domain or not validate_host(domain, settings.ALLOWED_HOSTS):
        return False
    return origin == f"{'https' if _secure(scope, headers) else 'http'}://{host}"


def _secure(scope: dict, headers: dict[bytes, str]) -> bool:
    if scope.get("scheme") == "wss":
        return True
    proxy = getattr(settings, "SECURE_PROXY_SSL_HEADER", None)
    if not proxy:
        return False
    name, value = proxy
    header = name.removeprefix("HTTP_").lower().replace("_", "-").encode()
    return headers.get(header, "").split(",")[0].strip() == value
