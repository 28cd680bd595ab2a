"""Rules for the names players go by: one spelling per person, and nobody passing for another player or a computer.

A player is shown as their display name, or their username when they have none. Display names are stored
normalised: Unicode NFKC (full-width and other compatibility lookalikes become the plain letters), no
invisible characters (``accounts.text``), whitespace collapsed to single spaces. A name must show something
(not only invisible, blank or combining characters).

Names that merely look alike count as the same: "p1" with a Cyrillic er (U+0440) beside "p1", "Cleo
(computer, medium)" with a Cyrillic es (U+0441) for the "c". Each user's username and display name are
stored with their ``skeleton()`` (Unicode's confusable skeleton, UTS #39, then case-folded) in indexed
columns, so one query compares a new name with every player's. The skeletons are kept by ``User.save()``;
code that changes names with ``QuerySet.update()`` must set them too, and a change to ``skeleton()`` needs
a migration that fills them again (as 0008 did).
"""

from __future__ import annotations

import unicodedata
from functools import cache

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db.models import Q, QuerySet, Value
from django.db.models.functions import Lower
from django.utils import translation
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from .confusables import PROTOTYPES
from .text import drop_invisible, is_blank, is_ignorable

DISPLAY_NAME_TAKEN = _("Another player already goes by that name (names ignore upper and lower case).")
DISPLAY_NAME_IS_USERNAME = _("That is another player's username. Choose a name of your own.")
USERNAME_IS_DISPLAY_NAME = _("Another player already goes by that name. Choose another username.")
USERNAME_TAKEN = _("That username is taken (usernames ignore upper and lower case).")
LOOKS_LIKE_ANOTHER = _(
    "That name looks too much like another player's name: letters of other alphabets, digits and signs "
    "that look alike count as the same. Choose another."
)
RESERVED_FOR_COMPUTERS = _("That name belongs to the computer players. Choose another.")
CONTROL_CHARACTERS = _("A name cannot contain control characters.")
BLANK = _("A name needs at least one visible letter, digit or sign.")
EMAIL_TAKEN = _("Another account already uses that email address.")

SKELETON_LENGTH = 500  # indexed: long enough for any name, short enough for a btree entry


def normalize_display_name(value: str) -> str:
    """NFKC-normalise, drop invisible characters and collapse whitespace: " Alice ", full-width "Alice" -> "Alice"."""
    return " ".join(drop_invisible(unicodedata.normalize("NFKC", value)).split())


def skeleton(name: str) -> str:
    """The key two names share when they look alike: "P1" and "p1" with a Cyrillic er; "rn" and "m"; "0" and "o".

    UTS #39's skeleton (NFD, each character to its prototype, NFD) of the name as shown (NFKC, without
    what is invisible, single spaces), then case-folded, twice over for what case folding reveals. The
    prototypes follow case, as the letters' looks do: a capital Cyrillic ka is "K", a small one is not "k"
    (names that differ only in case are caught by comparing them case-folded as well).
    """
    text = unicodedata.normalize("NFKC", name)
    text = " ".join("".join(char for char in text if not is_ignorable(char)).split())
    for _round in range(2):
        text = unicodedata.normalize("NFD", text)
        text = unicodedata.normalize("NFD", "".join(PROTOTYPES.get(char, char) for char in text)).casefold()
    return text[:SKELETON_LENGTH]


@cache
def _computer_keys() -> tuple[frozenset[str], tuple[str, ...], tuple[str, ...]]:
    """Skeletons of the computers' names, and of the words that mark a computer seat or level in every
    language: "Astrid (computer, medium)" and "Computer (easy)", "Astrid (компьютер, средний)", ..."""
    from games.models import COMPUTER_NAMES

    markers, prefixes = {"(computer"}, {"computer ("}
    for language, _name in settings.LANGUAGES:
        with translation.override(language):
            seat = gettext("%(name)s (computer, %(level)s)") % {"name": "\0", "level": "\1"}
            level = gettext("Computer (%(level)s)") % {"level": "\1"}
        markers.add(seat.partition("\0")[2].partition("\1")[0].strip().rstrip(",;:").strip())
        prefixes.add(level.partition("\1")[0].lstrip())
    # The skeleton follows the letters' case (a capital Cyrillic ka looks like "K", a small one does not).
    markers = {variant for marker in markers if marker for variant in _cases(marker)}
    prefixes = {variant for prefix in prefixes if prefix.strip() for variant in _cases(prefix)}
    return (
        frozenset(skeleton(variant) for name in COMPUTER_NAMES for variant in _cases(name)),  # "ASTRlD"
        tuple(sorted({skeleton(marker) for marker in markers})),
        tuple(sorted({skeleton(prefix) for prefix in prefixes})),
    )


def _cases(text: str) -> set[str]:
    return {text, text.lower(), text.upper(), text.capitalize(), text[:1] + text[1:2].upper() + text[2:].lower()}


def is_reserved_for_computers(name: str) -> bool:
    """A computer player's first name, or anything that reads like a computer seat or level, in any of the
    site's languages and in letters that only look like them."""
    names, markers, prefixes = _computer_keys()
    key = skeleton(name)
    return key in names or any(marker in key for marker in markers) or key.startswith(prefixes)


def _others(user_pk: int | None) -> QuerySet:
    users = get_user_model()._default_manager.all()
    return users.exclude(pk=user_pk) if user_pk is not None else users


def _lower_equals(users: QuerySet, field: str, value: str) -> QuerySet:
    return users.annotate(_key=Lower(field)).filter(_key=Lower(Value(value)))


def _lookalikes(name: str, user_pk: int | None) -> list[tuple[str, str]]:
    """(username, display name) of other players whose username or display name looks like ``name`` or is
    it in other case: one query, on the two skeleton columns and the two case-insensitive unique indexes."""
    key = skeleton(name)
    lower = Lower(Value(name))
    others = _others(user_pk).annotate(_username=Lower("username"), _display_name=Lower("display_name"))
    others = others.filter(
        Q(username_skeleton=key)
        | Q(display_name_skeleton=key)
        | Q(_username=lower)
        | (Q(_display_name=lower) & ~Q(display_name=""))  # the index's own condition, so it can be used
    )
    return list(others.values_list("username", "display_name")[:10])


def _refuse_blank(name: str) -> None:
    if any(unicodedata.category(char) == "Cc" for char in name):
        raise ValidationError(CONTROL_CHARACTERS, code="control_characters")
    if is_blank(name):
        raise ValidationError(BLANK, code="blank")


def clean_display_name(typed: str, user_pk: int | None) -> str:
    """The display name to store for what the player typed (empty: none), or ValidationError."""
    name = normalize_display_name(typed)
    if typed.strip():
        validate_display_name(name, user_pk)
    return name


def validate_display_name(name: str, user_pk: int | None) -> None:
    """Raise ValidationError unless ``name`` (already normalised, not empty) is free for the user ``user_pk``."""
    _refuse_blank(name)
    if is_reserved_for_computers(name):
        raise ValidationError(RESERVED_FOR_COMPUTERS, code="reserved")
    found = _lookalikes(name, user_pk)
    folded = name.casefold()
    if any(display_name.casefold() == folded for _username, display_name in found):
        raise ValidationError(DISPLAY_NAME_TAKEN, code="display_name_taken")
    if any(username.casefold() == folded for username, _display_name in found):
        raise ValidationError(DISPLAY_NAME_IS_USERNAME, code="display_name_is_username")
    if found:
        raise ValidationError(LOOKS_LIKE_ANOTHER, code="looks_like_another")


def validate_username(username: str, user_pk: int | None) -> None:
    """A username is shown when there is no display name, so it follows the display-name rules too."""
    _refuse_blank(username)
    if is_reserved_for_computers(username):
        raise ValidationError(RESERVED_FOR_COMPUTERS, code="reserved")
    found = _lookalikes(username, user_pk)
    folded = username.casefold()
    if any(display_name.casefold() == folded for _username, display_name in found):
        raise ValidationError(USERNAME_IS_DISPLAY_NAME, code="username_is_display_name")
    if any(other.casefold() == folded for other, _display_name in found):
        raise ValidationError(USERNAME_TAKEN, code="username_taken")
    if found:
        raise ValidationError(LOOKS_LIKE_ANOTHER, code="looks_like_another")


def validate_email(email: str, user_pk: int | None) -> None:
    if email and _lower_equals(_others(user_pk), "email", email).exists():
        raise ValidationError(EMAIL_TAKEN, code="email_taken")
