"""Skeleton columns (what a name looks like, ``accounts.names.skeleton``), filled for every player; display
names that the rules now refuse are cleared, so the player is shown by their username, as 0003 did.

A display name is cleared when it shows nothing, reads as a computer's (in any language or lookalike
letters: "Cleo (\u0441omputer, medium)"), looks like another player's username, or looks like the display
name of an earlier player (lower id). Kept names are normalised again (invisible characters that are not
needed, such as a joiner between Latin letters, are dropped). Usernames cannot be cleared and stay.

This migration uses the code's own ``skeleton()``: the columns must hold what the running code compares.
"""

from collections import defaultdict

from django.db import migrations, models


def settle(apps, schema_editor):
    from accounts.names import is_reserved_for_computers, normalize_display_name, skeleton
    from accounts.text import is_blank

    User = apps.get_model("accounts", "User")
    username_owners = defaultdict(set)
    for pk, username in User.objects.values_list("pk", "username").iterator():
        username_owners[skeleton(username)].add(pk)
    taken = set()
    decided = []
    for user in User.objects.order_by("pk").iterator():
        name = normalize_display_name(user.display_name)
        key = skeleton(name) if name else ""
        if name and (
            is_blank(name) or is_reserved_for_computers(name) or key in taken or username_owners[key] - {user.pk}
        ):
            name, key = "", ""
        taken.add(key)
        decided.append((user, name, key))
    # Clear first, then rename: a name normalised again may equal one cleared further on.
    for user, name, key in sorted(decided, key=lambda row: bool(row[1])):
        user.display_name = name
        user.username_skeleton = skeleton(user.username)
        user.display_name_skeleton = key
        user.save(update_fields=["display_name", "username_skeleton", "display_name_skeleton"])


class Migration(migrations.Migration):

    dependencies = [
        ('accounts', '0007_throttle'),
        ('auth', '0012_alter_user_first_name_max_length'),
    ]

    operations = [
        migrations.AddField(
            model_name='user',
            name='display_name_skeleton',
            field=models.TextField(blank=True, editable=False),
        ),
        migrations.AddField(
            model_name='user',
            name='username_skeleton',
            field=models.TextField(blank=True, editable=False),
        ),
        migrations.AddIndex(
            model_name='user',
            index=models.Index(fields=['username_skeleton'], name='accounts_user_username_skel'),
        ),
        migrations.AddIndex(
            model_name='user',
            index=models.Index(fields=['display_name_skeleton'], name='accounts_user_display_skel'),
        ),
        migrations.RunPython(settle, migrations.RunPython.noop),
    ]
