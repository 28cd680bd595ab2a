from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.db import models
from django.db.models import Q
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy as _

from .names import DISPLAY_NAME_TAKEN, EMAIL_TAKEN, normalize_display_name, skeleton


class User(AbstractUser):
    """A registered player. Usernames are unique regardless of case ("Anna" and "anna" are one).

    ``date_joined`` is when the player was created. Display names and email addresses, where given, are
    unique regardless of case too; the other name rules are in ``accounts.names``, which also explains
    the two skeleton columns.
    """

    display_name = models.CharField(_("display name"), max_length=40, blank=True)
    turn_sound = models.BooleanField(_("sound on my turn"), default=True)
    language = models.CharField(
        _("language"),
        max_length=8,
        choices=settings.LANGUAGES,
        blank=True,
        help_text=_("Pages and table messages in this language, on every device; empty: the browser's."),
    )
    time_zone = models.CharField(
        _("time zone"),
        max_length=64,
        blank=True,
        help_text=_("Deadlines and quiet hours are shown in this time zone; empty: UTC."),
    )
    turn_push = models.BooleanField(
        _("your turn by push"),
        default=True,
        help_text=_("At a turn-based table, a notification on each browser where you allowed them."),
    )
    turn_email = models.BooleanField(
        _("your turn by e-mail"),
        default=True,
        help_text=_("At a turn-based table, one e-mail at most now and then, listing every table waiting on you."),
    )
    quiet_from = models.TimeField(_("quiet from"), null=True, blank=True)
    quiet_until = models.TimeField(
        _("quiet until"), null=True, blank=True, help_text=_("No notifications between these times (your time zone).")
    )
    digest_due = models.DateTimeField(
        null=True, blank=True, editable=False, help_text=_("When the e-mail digest now queued will be sent.")
    )
    digest_sent = models.DateTimeField(null=True, blank=True, editable=False)

    # What the names look like (accounts.names.skeleton), kept by save(): lookalikes are found with one query.
    username_skeleton = models.TextField(blank=True, editable=False)
    display_name_skeleton = models.TextField(blank=True, editable=False)

    class Meta:
        indexes = [
            models.Index(fields=["username_skeleton"], name="accounts_user_username_skel"),
            models.Index(fields=["display_name_skeleton"], name="accounts_user_display_skel"),
        ]
        constraints = [
            models.UniqueConstraint(Lower("username"), name="accounts_user_username_ci_unique"),
            models.UniqueConstraint(
                Lower("display_name"),
                condition=~Q(display_name=""),
                name="accounts_user_display_name_ci_unique",
                violation_error_message=DISPLAY_NAME_TAKEN,
            ),
            models.UniqueConstraint(
                Lower("email"),
                condition=~Q(email=""),
                name="accounts_user_email_ci_unique",
                violation_error_message=EMAIL_TAKEN,
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        super().clean()
        self.display_name = normalize_display_name(self.display_name)

    def save(self, *args, **kwargs) -> None:
        self.username_skeleton = skeleton(self.username)
        self.display_name_skeleton = skeleton(self.display_name) if self.display_name else ""
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and {"username", "display_name"} & set(update_fields):
            kwargs["update_fields"] = {*update_fields, "username_skeleton", "display_name_skeleton"}
        super().save(*args, **kwargs)

    @property
    def name(self) -> str:
        return self.display_name or self.username

    @property
    def zone(self) -> ZoneInfo:
        """The player's time zone (UTC when unset or no longer known)."""
        try:
            return ZoneInfo(self.time_zone or "UTC")
        except (ZoneInfoNotFoundError, ValueError):
            return ZoneInfo("UTC")


class Throttle(models.Model):
    """Recent requests under one key, for limits that every server process shares (password reset).

    ``hits`` holds the times (Unix seconds) of the requests counted in the current window, oldest first;
    the row is locked while it is read and written, so concurrent requests are counted one at a time.
    """

    key = models.CharField(max_length=100, unique=True)
    hits = models.JSONField(default=list)
    updated = models.DateTimeField(db_index=True)

    def __str__(self) -> str:
        return self.key
