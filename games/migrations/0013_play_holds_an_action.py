"""A deal's rows hold actions, not only cards: a card is its notation, other actions are words."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0012_match_record"),
    ]

    operations = [
        migrations.RenameField(model_name="play", old_name="card", new_name="action"),
        migrations.AlterField(
            model_name="play",
            name="action",
            field=models.CharField(help_text="A card (QH) or an action word (pass, bid:3, redeal:yes).", max_length=20),
        ),
    ]
