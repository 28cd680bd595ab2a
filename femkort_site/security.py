"""A small piece the security libraries leave to the site: refusing bad paths."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable

from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from django.http import Http404, HttpRequest, HttpResponseBase

# C0 controls (NUL included), DEL and C1 controls: no URL of the site has one, and PostgreSQL refuses a
# NUL in a query parameter with an exception, which would be a 500 instead of a 404.
CONTROL_CHARACTERS = re.compile("[\x00-\x1f\x7f-\x9f]")


class RejectControlCharactersMiddleware:
    """Answer 404 to a request whose path holds a control character, before any view or query sees it."""

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
        self.refuse_bad_path(request)
        return self.get_response(request)

    async def __acall__(self, request: HttpRequest) -> HttpResponseBase:
        self.refuse_bad_path(request)
        return await self.get_response(request)

    @staticmethod
    def refuse_bad_path(request: HttpRequest) -> None:
        if CONTROL_CHARACTERS.search(request.path_info):
            raise Http404("The path holds a control character.")
