from django.contrib.auth.models import AbstractUser
from django.db import models
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy as _


class User(AbstractUser):
    """A registered player. Usernames are unique regardless of case ("Anna" and "anna" are one).

    ``date_joined`` is when the player was created.
    """

    display_name = models.CharField(_("display name"), max_length=40, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(Lower("username"), name="accounts_user_username_ci_unique"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def name(self) -> str:
        return self.display_name or self.username
