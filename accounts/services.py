"""Account writes that are more than a form's save: counting password-reset requests.

Password reset mails go to whatever address is typed, so without a limit anyone can send a player
(or anyone at all) mail after mail. Requests are counted per address typed and per client address,
in the database (``Throttle``), so every server process sees the same counts. The address typed is
stored only as a keyed hash; a request is counted the same way whether or not an account uses the
address, so a refusal says nothing about who has an account.
"""

from __future__ import annotations

import ipaddress
import time
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.crypto import salted_hmac
from django.utils.translation import ngettext

from .models import Throttle


class PasswordResetThrottled(Exception):
    """Too many requests for this address (``reason == "email"``) or from this client (``"client"``)."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason

    @property
    def message(self) -> str:
        minutes = settings.FEMKORT_PASSWORD_RESET_WINDOW_MINUTES
        if self.reason == "email":
            text = ngettext(
                "Too many reset links have been asked for this email address. Check your inbox and spam "
                "folder for the last one, or try again in %(minutes)d minute.",
                "Too many reset links have been asked for this email address. Check your inbox and spam "
                "folder for the last one, or try again in %(minutes)d minutes.",
                minutes,
            )
        else:
            text = ngettext(
                "Too many password reset requests from your network. Try again in %(minutes)d minute.",
                "Too many password reset requests from your network. Try again in %(minutes)d minutes.",
                minutes,
            )
        return text % {"minutes": minutes}


def email_key(email: str) -> str:
    """The address typed, as the reset form matches it (ignoring case), hashed with the site's secret."""
    digest = salted_hmac("accounts.password_reset", email.strip().casefold(), algorithm="sha256").hexdigest()
    return f"reset-email:{digest}"


def client_key(client: str | None) -> str:
    """The client's address; for IPv6 its /64, which one household or server usually has whole."""
    try:
        address = ipaddress.ip_address(client or "")
    except ValueError:
        return "reset-client:unknown"
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped:
            return f"reset-client:{address.ipv4_mapped}"
        return f"reset-client:{ipaddress.ip_network(f'{address}/64', strict=False)}"
    return f"reset-client:{address}"


def password_reset_count(*, email: str, client: str | None) -> None:
    """Count one request for a reset link to ``email`` from ``client``, or raise PasswordResetThrottled.

    A request refused for its client counts for nothing; one refused for its address still counts
    against the client (which keeps asking). Limits: ``FEMKORT_PASSWORD_RESET_PER_EMAIL`` and
    ``FEMKORT_PASSWORD_RESET_PER_CLIENT`` in ``FEMKORT_PASSWORD_RESET_WINDOW_MINUTES``.
    """
    window = settings.FEMKORT_PASSWORD_RESET_WINDOW_MINUTES * 60
    refused = _count(
        limits={
            client_key(client): (settings.FEMKORT_PASSWORD_RESET_PER_CLIENT, "client"),
            email_key(email): (settings.FEMKORT_PASSWORD_RESET_PER_EMAIL, "email"),
        },
        window=window,
    )
    Throttle.objects.filter(updated__lt=timezone.now() - timedelta(seconds=window)).delete()
    if refused:
        raise PasswordResetThrottled(refused)


@transaction.atomic
def _count(*, limits: dict[str, tuple[int, str]], window: float) -> str | None:
    """Add a hit to every key in ``limits`` (client first) unless one is full: then its reason."""
    rows = _locked(sorted(limits), timezone.now())
    now = time.time()
    refused = None
    for key in limits:  # the client's key first: a request it may not make counts nowhere
        row = rows[key]
        hits = [hit for hit in row.hits if hit > now - window]
        limit, reason = limits[key]
        if len(hits) >= limit:
            refused = reason
            break
        row.hits = [*hits, now]
        row.updated = timezone.now()
        row.save(update_fields=["hits", "updated"])
    return refused


def _locked(keys: list[str], now: datetime) -> dict[str, Throttle]:
    """The rows for ``keys``, created if missing and locked (in key order, so two requests cannot deadlock)."""
    for _attempt in range(3):
        Throttle.objects.bulk_create([Throttle(key=key, updated=now) for key in keys], ignore_conflicts=True)
        rows = {row.key: row for row in Throttle.objects.select_for_update().filter(key__in=keys).order_by("key")}
        if len(rows) == len(keys):
            return rows
    raise RuntimeError("password reset throttle rows vanished three times")  # a clean-up racing every attempt
