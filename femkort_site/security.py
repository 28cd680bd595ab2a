"""Two small pieces the security libraries leave to the site: websocket origins for the CSP, bad paths."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable

from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from django.http import Http404, HttpRequest, HttpResponseBase

# C0 controls (NUL included), DEL and C1 controls: no URL of the site has one, and PostgreSQL refuses a
# NUL in a query parameter with an exception, which would be a 500 instead of a 404.
CONTROL_CHARACTERS = re.compile("[\x00-\x1f\x7f-\x9f]")


def websocket_sources(hosts: list[str], *, secure_only: bool) -> list[str]:
    """The ws(s) origins of the allowed hosts, for CSP ``connect-src``.

    Browsers following CSP Level 3 already let ``'self'`` match ``wss:`` (and, on an http page, ``ws:``)
    on the page's host and port; Safari before its 2022 fix did not, so the origins are listed too.
    Production (``secure_only``) serves https only, so only ``wss:`` on the default port; development
    may run on any port. ``*`` and IPv6 literals cannot be written as CSP hosts and are left to 'self'.
    """
    schemes = ("wss",) if secure_only else ("ws", "wss")
    port = "" if secure_only else ":*"
    sources: list[str] = []
    for host in hosts:
        if host == "*" or host.startswith("["):
            continue
        # Django's ".example.com" means the domain and all its subdomains.
        names = [host[1:], f"*{host}"] if host.startswith(".") else [host]
        sources += [f"{scheme}://{name}{port}" for name in names for scheme in schemes]
    return sources


class RequestStep:
    """A middleware that only looks at (or adjusts) the request before the rest sees it, on the
    sync and the async path alike; subclasses say what in ``step``."""

    sync_capable = True
    async_capable = True

    def __init__(self, get_response: Callable) -> None:
        self.get_response = get_response
        self.is_async = iscoroutinefunction(get_response)
        if self.is_async:
            markcoroutinefunction(self)

    def __call__(self, request: HttpRequest) -> HttpResponseBase | Awaitable[HttpResponseBase]:
        if self.is_async:
            return self.__acall__(request)
        self.step(request)
        return self.get_response(request)

    async def __acall__(self, request: HttpRequest) -> HttpResponseBase:
        self.step(request)
        return await self.get_response(request)

    @staticmethod
    def step(request: HttpRequest) -> None:
        raise NotImplementedError


class RejectControlCharactersMiddleware(RequestStep):
    """Answer 404 to a request whose path holds a control character, before any view or query sees it."""

    @staticmethod
    def step(request: HttpRequest) -> None:
        if CONTROL_CHARACTERS.search(request.path_info):
            raise Http404("The path holds a control character.")
