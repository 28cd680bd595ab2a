"""Rules for the names players go by: one spelling per person, and nobody passing for another player or a computer.

A player is shown as their display name, or their username when they have none. Display names are stored
normalised: Unicode NFKC (full-width and other compatibility lookalikes become the plain letters), no
invisible characters, whitespace collapsed to single spaces. Comparisons ignore case the way the database's
``lower()`` does, as the unique constraints do: all of Unicode on PostgreSQL, ASCII letters only on SQLite.
"""

from __future__ import annotations

import unicodedata

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db.models import QuerySet, Value
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy as _

# Computer seats are called "Astrid (computer, medium)"; the leaderboard calls a level "Computer (easy)".
COMPUTER_MARKERS = ("(computer",)
COMPUTER_PREFIX = "computer ("

DISPLAY_NAME_TAKEN = _("Another player already goes by that name (names ignore upper and lower case).")
DISPLAY_NAME_IS_USERNAME = _("That is another player's username. Choose a name of your own.")
USERNAME_IS_DISPLAY_NAME = _("Another player already goes by that name. Choose another username.")
RESERVED_FOR_COMPUTERS = _("That name belongs to the computer players. Choose another.")
CONTROL_CHARACTERS = _("A name cannot contain control characters.")
EMAIL_TAKEN = _("Another account already uses that email address.")


# Invisible format characters (zero-width space, bidi overrides, ...) except the joiners some scripts and
# emoji need: dropped, so "Al\u200bice" cannot pass for "Alice".
KEPT_FORMAT_CHARACTERS = {"\u200c", "\u200d"}


def normalize_display_name(value: str) -> str:
    """NFKC-normalise, drop invisible characters and collapse whitespace: " Alice ", full-width "Alice" -> "Alice"."""
    value = unicodedata.normalize("NFKC", value)
    value = "".join(c for c in value if unicodedata.category(c) != "Cf" or c in KEPT_FORMAT_CHARACTERS)
    return " ".join(value.split())


def is_reserved_for_computers(name: str) -> bool:
    """A computer player's first name, or anything that reads like a computer seat or level."""
    from games.models import COMPUTER_NAMES

    folded = normalize_display_name(name).casefold()
    return (
        folded in {computer.casefold() for computer in COMPUTER_NAMES}
        or any(marker in folded for marker in COMPUTER_MARKERS)
        or folded.startswith(COMPUTER_PREFIX)
    )


def _others(user_pk: int | None) -> QuerySet:
    users = get_user_model()._default_manager.all()
    return users.exclude(pk=user_pk) if user_pk is not None else users


def _lower_equals(users: QuerySet, field: str, value: str) -> QuerySet:
    return users.annotate(_key=Lower(field)).filter(_key=Lower(Value(value)))


def validate_display_name(name: str, user_pk: int | None) -> None:
    """Raise ValidationError unless ``name`` (already normalised) is free for the user ``user_pk``."""
    if not name:
        return
    if any(unicodedata.category(char) == "Cc" for char in name):
        raise ValidationError(CONTROL_CHARACTERS, code="control_characters")
    if is_reserved_for_computers(name):
        raise ValidationError(RESERVED_FOR_COMPUTERS, code="reserved")
    others = _others(user_pk)
    if _lower_equals(others, "display_name", name).exists():
        raise ValidationError(DISPLAY_NAME_TAKEN, code="display_name_taken")
    if _lower_equals(others, "username", name).exists():
        raise ValidationError(DISPLAY_NAME_IS_USERNAME, code="display_name_is_username")


def validate_username(username: str, user_pk: int | None) -> None:
    """A username is shown when there is no display name, so it follows the display-name rules too."""
    if is_reserved_for_computers(username):
        raise ValidationError(RESERVED_FOR_COMPUTERS, code="reserved")
    if _lower_equals(_others(user_pk), "display_name", username).exists():
        raise ValidationError(USERNAME_IS_DISPLAY_NAME, code="username_is_display_name")


def validate_email(email: str, user_pk: int | None) -> None:
    if email and _lower_equals(_others(user_pk), "email", email).exists():
        raise ValidationError(EMAIL_TAKEN, code="email_taken")
