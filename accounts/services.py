"""Account writes that are more than a form's save: counting password-reset requests.

Password reset mails go to whatever address is typed, so without a limit anyone can send a player
(or anyone at all) mail after mail. Requests are counted per address typed and per client address,
in the database (``Throttle``), so every server process sees the same counts. The address typed is
stored only as a keyed hash; a request is counted the same way whether or not an account uses the
address, so a refusal says nothing about who has an account.
"""

from __future__ import annotations

from django.conf import settings
from django.utils.crypto import salted_hmac
from django.utils.translation import ngettext

from . import throttle


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
    return throttle.client_key("reset-client", client)


def password_reset_count(*, email: str, client: str | None) -> None:
    """Count one request for a reset link to ``email`` from ``client``, or raise PasswordResetThrottled.

    A request refused for its client counts for nothing; one refused for its address still counts
    against the client (which keeps asking). Limits: ``FEMKORT_PASSWORD_RESET_PER_EMAIL`` and
    ``FEMKORT_PASSWORD_RESET_PER_CLIENT`` in ``FEMKORT_PASSWORD_RESET_WINDOW_MINUTES``.
    """
    refused = throttle.hit(
        {
            client_key(client): (settings.FEMKORT_PASSWORD_RESET_PER_CLIENT, "client"),
            email_key(email): (settings.FEMKORT_PASSWORD_RESET_PER_EMAIL, "email"),
        },
        window=settings.FEMKORT_PASSWORD_RESET_WINDOW_MINUTES * 60,
    )
    if refused:
        raise PasswordResetThrottled(refused)
