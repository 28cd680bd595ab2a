"""What every page's header shows: the invitations waiting for the viewer's answer, the turn-based
tables waiting on their move, and which of the players they follow are online (and at which table).

Both are callables, which templates call when they use them: a table's fragments and polls
never do, and a page reads each once.
"""

from __future__ import annotations

from functools import cache

from django.http import HttpRequest

from .my_tables import waiting_count
from .selectors import friends_online
from .services import invitations_open


def invitations(request: HttpRequest) -> dict:
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {
        "invitations_waiting": cache(lambda: invitations_open(user).count()),
        "friends_online": cache(lambda: friends_online(user)),
        "tables_waiting": cache(lambda: waiting_count(user.pk)),
    }
