"""Limits that every server process shares: recent hits under a key, counted in the database.

Password reset links, private tables' code guesses and the verify page count here (``Throttle``
rows, locked while read and written, so requests made at once are counted one at a time).
"""

from __future__ import annotations

import ipaddress
import time
from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from .models import Throttle


def client_key(prefix: str, client: str | None) -> str:
    """The client's address under ``prefix``; for IPv6 its /64, which one household or server usually has whole."""
    try:
        address = ipaddress.ip_address(client or "")
    except ValueError:
        return f"{prefix}:unknown"
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped:
            return f"{prefix}:{address.ipv4_mapped}"
        return f"{prefix}:{ipaddress.ip_network(f'{address}/64', strict=False)}"
    return f"{prefix}:{address}"


def hit(limits: dict[str, tuple[int, str]], *, window: float) -> str | None:
    """Count one hit under every key of ``limits`` (key: (most hits in ``window`` seconds, reason)),
    in their order, unless one is full: then that key's reason, and the keys after it count nothing."""
    refused = _count(limits, window)
    Throttle.objects.filter(updated__lt=timezone.now() - timedelta(seconds=window)).delete()
    return refused


@transaction.atomic
def _count(limits: dict[str, tuple[int, str]], window: float) -> str | None:
    rows = _locked(sorted(limits), timezone.now())
    now = time.time()
    for key, (limit, reason) in limits.items():
        row = rows[key]
        hits = [earlier for earlier in row.hits if earlier > now - window]
        if len(hits) >= limit:
            return reason
        row.hits = [*hits, now]
        row.updated = timezone.now()
        row.save(update_fields=["hits", "updated"])
    return None


def _locked(keys: list[str], now: datetime) -> dict[str, Throttle]:
    """The rows for ``keys``, created if missing and locked (in key order, so two requests cannot deadlock)."""
    for _attempt in range(3):
        Throttle.objects.bulk_create([Throttle(key=key, updated=now) for key in keys], ignore_conflicts=True)
        rows = {row.key: row for row in Throttle.objects.select_for_update().filter(key__in=keys).order_by("key")}
        if len(rows) == len(keys):
            return rows
    raise RuntimeError("throttle rows vanished three times")  # a clean-up racing every attempt
