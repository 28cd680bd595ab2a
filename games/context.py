"""What every page's header shows: the invitations waiting for the viewer's answer."""

from __future__ import annotations

from django.http import HttpRequest

from .services import invitations_open


def invitations(request: HttpRequest) -> dict:
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {"invitations_waiting": invitations_open(user).count()}
