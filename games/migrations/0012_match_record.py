"""The match moves from per-game columns into the game's own JSON record.

Written the old way: ``GameSession.dealer`` (next dealer), ``pot`` and ``tiebreak``, and
each seat's ``wins`` and ``chips`` (pot-play chips, or Letzter Stich tokens). The record is
what the game modules' ``to_record`` write, frozen here as it was when this ran.
"""

from django.db import migrations, models


def to_records(apps, schema_editor):
    Session = apps.get_model("games", "GameSession")
    for session in Session.objects.exclude(dealer=None).iterator(chunk_size=500):
        seats = list(session.seats.order_by("position"))
        if session.game == "letzter-stich":
            record = {"dealer": session.dealer, "tokens": [seat.chips for seat in seats], "pot": session.pot}
        else:
            winner = session.winner_id
            record = {
                "dealer": session.dealer,
                "wins": [seat.wins for seat in seats],
                "winners": [seat.position for seat in seats if seat.pk == winner],
            }
            if session.options.get("pot"):
                record["chips"] = [seat.chips for seat in seats]
            if session.tiebreak:
                record["tiebreak"] = list(session.tiebreak)
        session.match = record
        session.save(update_fields=["match"])


def to_columns(apps, schema_editor):
    Session = apps.get_model("games", "GameSession")
    for session in Session.objects.exclude(match={}).iterator(chunk_size=500):
        record = session.match
        session.dealer = record["dealer"]
        session.pot = record.get("pot", 0)
        session.tiebreak = record.get("tiebreak")
        session.save(update_fields=["dealer", "pot", "tiebreak"])
        for seat in session.seats.all():
            seat.wins = record["wins"][seat.position] if "wins" in record else 0
            chips = record.get("tokens") or record.get("chips")
            seat.chips = chips[seat.position] if chips else None
            seat.save(update_fields=["wins", "chips"])


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0011_games_from_the_registry"),
    ]

    operations = [
        migrations.AddField(
            model_name="gamesession",
            name="match",
            field=models.JSONField(
                blank=True,
                default=dict,
                help_text="The game's own record of the session so far (scores, chips, tokens, pot, next dealer).",
            ),
        ),
        migrations.RunPython(to_records, to_columns),
        migrations.RemoveField(model_name="gamesession", name="dealer"),
        migrations.RemoveField(model_name="gamesession", name="pot"),
        migrations.RemoveField(model_name="gamesession", name="tiebreak"),
        migrations.RemoveField(model_name="seat", name="chips"),
        migrations.RemoveField(model_name="seat", name="wins"),
    ]
