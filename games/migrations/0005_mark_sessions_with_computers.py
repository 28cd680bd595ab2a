from django.db import migrations


def mark(apps, schema_editor):
    GameSession = apps.get_model("games", "GameSession")
    GameSession.objects.filter(seats__computer__gt="").update(with_computers=True)


class Migration(migrations.Migration):
    dependencies = [("games", "0004_history_and_standings")]

    operations = [migrations.RunPython(mark, migrations.RunPython.noop)]
