"""A signed-in player's chosen language wins over the browser's (Django's LocaleMiddleware
reads the cookie and Accept-Language first; this runs after authentication), and times are
shown in their own time zone."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils import timezone, translation


class PlayerLanguage:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        chosen = getattr(user, "language", "") if user is not None and user.is_authenticated else ""
        if chosen and chosen != request.LANGUAGE_CODE:
            translation.activate(chosen)
            request.LANGUAGE_CODE = chosen
        if user is not None and user.is_authenticated and user.time_zone:
            timezone.activate(user.zone)
        else:
            timezone.deactivate()
        return self.get_response(request)
