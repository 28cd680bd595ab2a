"""Make existing data fit the rules before 0004 adds the unique constraints, so that migration cannot fail.

Display names are normalised as ``accounts.names`` does (NFKC, no invisible characters, single spaces).
A display name is cleared, so the player is shown by their username (unique already), when an earlier
player (lower id) has it, when it is another player's username, or when it belongs to the computer
players. An email address used by an earlier player is cleared on the later accounts. Ignoring case is
done with Python's casefold()/lower(), at least as strict as the databases' lower().

The rules are copied here, not imported, so this migration keeps meaning what it meant.
"""

import unicodedata

from django.db import migrations

COMPUTER_NAMES = ("Astrid", "Birger", "Cleo", "Dag", "Elsa", "Frej", "Greta", "Hugo", "Ingrid", "Jens")
KEPT_FORMAT_CHARACTERS = {"\u200c", "\u200d"}


def normalize(value):
    value = unicodedata.normalize("NFKC", value)
    value = "".join(c for c in value if unicodedata.category(c) != "Cf" or c in KEPT_FORMAT_CHARACTERS)
    return " ".join(value.split())[:40]


def reserved(folded):
    return (
        folded in {name.casefold() for name in COMPUTER_NAMES}
        or "(computer" in folded
        or folded.startswith("computer (")
        or any(unicodedata.category(c) == "Cc" for c in folded)
    )


def settle(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    username_owner = {username.casefold(): pk for pk, username in User.objects.values_list("pk", "username").iterator()}
    taken = set()
    for user in User.objects.exclude(display_name="").order_by("pk").iterator():
        name = normalize(user.display_name)
        key = name.casefold()
        if key in taken or username_owner.get(key, user.pk) != user.pk or reserved(key):
            name = ""
        taken.add(key)
        if name != user.display_name:
            user.display_name = name
            user.save(update_fields=["display_name"])
    taken = set()
    for user in User.objects.exclude(email="").order_by("pk").iterator():
        email = user.email.strip()
        key = email.lower()
        if key in taken:
            email = ""
        taken.add(key)
        if email != user.email:
            user.email = email
            user.save(update_fields=["email"])


class Migration(migrations.Migration):

    dependencies = [
        ("accounts", "0002_user_display_name"),
    ]

    operations = [
        migrations.RunPython(settle, migrations.RunPython.noop),
    ]
