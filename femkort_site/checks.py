"""System checks for settings Django cannot judge: where password-reset mail goes in production."""

from __future__ import annotations

from typing import Any

from django.apps import AppConfig
from django.conf import settings
from django.core.checks import CheckMessage, Tags, Warning, register

# Backends that never deliver mail, and where it ends up instead.
UNDELIVERED_MAIL = {
    "django.core.mail.backends.console.EmailBackend": "mail goes to the server log",
    "django.core.mail.backends.filebased.EmailBackend": "mail goes to files on the server",
    "django.core.mail.backends.locmem.EmailBackend": "mail is kept in memory and lost",
    "django.core.mail.backends.dummy.EmailBackend": "mail is thrown away",
}


@register(Tags.compatibility)
def mail_is_delivered_in_production(app_configs: list[AppConfig] | None, **kwargs: Any) -> list[CheckMessage]:
    """Warn loudly (runserver, migrate, check) when production was told not to deliver mail."""
    where = UNDELIVERED_MAIL.get(settings.EMAIL_BACKEND)
    if settings.DEBUG or where is None:
        return []
    return [
        Warning(
            f"DJANGO_EMAIL_BACKEND is {settings.EMAIL_BACKEND} in production: {where}, "
            "so nobody receives password-reset links.",
            hint="Set DJANGO_EMAIL_HOST (and DJANGO_EMAIL_HOST_USER/PASSWORD) for SMTP, or another backend.",
            id="femkort.W001",
        )
    ]
