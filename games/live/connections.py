"""Who may open another socket now, and the presence rows every open socket leaves in the database.

Table sockets and notices sockets (on every other page) are limited apart, each with the same
numbers: browsing the site's pages never uses up what a player needs to open a table. A player
with any socket open is online (``games.selectors.friends_online``).
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from accounts.models import User
from games.models import PRESENCE_TIMEOUT, Connection, SocketOpening
from games.services.locks import named_lock


def connection_open(*, user: User | None, ip: str | None, channel_name: str, session_id: int | None = None) -> str:
    """Record the socket if the limits allow another now: "ok", "too_often" or "too_many".

    Counted and recorded under one lock per player (or address), so sockets opened at the
    same moment are counted one by one.
    """
    key = f"user:{user.pk}" if user is not None else f"ip:{ip}"
    if session_id is None:
        key = f"page {key}"
    now = timezone.now()
    with transaction.atomic():
        named_lock(f"sockets {key}")
        window = now - timedelta(seconds=60)
        if (
            SocketOpening.objects.filter(key=key, opened__gte=window).count()
            >= settings.FEMKORT_SOCKET_OPENS_PER_MINUTE
        ):
            return "too_often"
        alive = Connection.objects.filter(seen__gte=now - timedelta(seconds=PRESENCE_TIMEOUT))
        if user is not None:
            same_kind = alive.filter(user=user, session__isnull=session_id is None)
            if same_kind.count() >= settings.FEMKORT_SOCKETS_PER_USER:
                return "too_many"
        else:
            from_ip = alive.filter(user=None, ip=ip)
            if (
                from_ip.count() >= settings.FEMKORT_ANONYMOUS_SOCKETS_PER_IP
                or from_ip.filter(session_id=session_id).count() >= settings.FEMKORT_ANONYMOUS_SOCKETS_PER_TABLE
            ):
                return "too_many"
        SocketOpening.objects.create(key=key, opened=now)
        Connection.objects.create(session_id=session_id, user=user, ip=ip, channel_name=channel_name)
    return "ok"


def connection_close(channel_name: str) -> None:
    Connection.objects.filter(channel_name=channel_name).delete()
