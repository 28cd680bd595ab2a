"""The game "letzter-stich" is named "letzter_stich", as its module and every other game are."""

from django.db import migrations

TABLES = ("GameSession", "Standing", "PeriodStanding")


def rename(old: str, new: str):
    def run(apps, schema_editor):
        for model in TABLES:
            apps.get_model("games", model).objects.filter(game=old).update(game=new)

    return run


class Migration(migrations.Migration):
    dependencies = [("games", "0027_connection_without_table")]

    operations = [
        migrations.RunPython(rename("letzter-stich", "letzter_stich"), rename("letzter_stich", "letzter-stich")),
    ]
