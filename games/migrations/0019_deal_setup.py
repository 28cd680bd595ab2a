"""A deal stores its game's own setup (everything dealt and the session context) instead of
trick-shaped columns; existing deals keep exactly what they held, in the trick games' setup."""

from django.db import migrations, models


def to_setup(apps, schema_editor):
    Deal = apps.get_model("games", "Deal")
    for deal in Deal.objects.iterator(chunk_size=500):
        setup = {"dealer": deal.dealer, "hands": deal.hands, "options": deal.options or {}}
        if deal.upcard:
            setup["upcard"] = deal.upcard
        deal.setup = setup
        deal.save(update_fields=["setup"])


def to_columns(apps, schema_editor):
    Deal = apps.get_model("games", "Deal")
    for deal in Deal.objects.iterator(chunk_size=500):
        setup = deal.setup or {}
        deal.hands = setup.get("hands", [])
        deal.options = setup.get("options", {})
        deal.trump = (deal.options.get("trump") or "") if isinstance(deal.options, dict) else ""
        deal.upcard = setup.get("upcard", "")
        deal.save(update_fields=["hands", "options", "trump", "upcard"])


class Migration(migrations.Migration):
    dependencies = [("games", "0018_socket_openings")]

    operations = [
        migrations.AddField(model_name="deal", name="setup", field=models.JSONField(default=dict)),
        migrations.RunPython(to_setup, to_columns),
        migrations.AlterField(
            model_name="deal",
            name="setup",
            field=models.JSONField(
                help_text=(
                    "The deal as its game dealt it, in the game's own terms: every card dealt (hands, stock, "
                    "upcard), the options it was played under and what it needed of the session before it."
                )
            ),
        ),
        migrations.RemoveField(model_name="deal", name="hands"),
        migrations.RemoveField(model_name="deal", name="trump"),
        migrations.RemoveField(model_name="deal", name="upcard"),
        migrations.RemoveField(model_name="deal", name="options"),
    ]
