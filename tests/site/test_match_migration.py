"""Sessions stored the old way (the match in per-game columns) read the same after the move to
the game's own JSON record: their pages, and the match their game reads back."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client

from games.models import GameSession, Standing
from games.stored import match_of

BEFORE = [("games", "0011_games_from_the_registry")]
AFTER = [("games", "0012_match_record")]


@pytest.fixture
def back_to_the_latest_schema():
    yield
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("back_to_the_latest_schema")
def test_old_rows_become_match_records(players):
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    apps = executor.loader.project_state(BEFORE).apps
    Session, Seat = apps.get_model("games", "GameSession"), apps.get_model("games", "Seat")
    host_id = players[0].pk

    def old_session(game, options, status, dealer, seats, **columns):
        session = Session.objects.create(
            game=game, options=options, seat_count=len(seats), status=status, host_id=host_id, dealer=dealer, **columns
        )
        rows = [
            Seat.objects.create(session=session, position=i, user_id=players[i].pk, wins=wins, chips=chips)
            for i, (wins, chips) in enumerate(seats)
        ]
        return session, rows

    plain, plain_seats = old_session("femkort", {"target": 3}, "finished", 1, [(3, None), (1, None), (2, None)])
    Session.objects.filter(pk=plain.pk).update(winner=plain_seats[0])
    pot, _ = old_session(
        "femkort", {"pot": True, "stack": 5, "target": 3}, "playing", 2, [(1, 7), (0, 4), (1, 4)], tiebreak=[1, 2]
    )
    tokens, _ = old_session("letzter-stich", {"tokens": 5}, "playing", 0, [(0, 4), (0, 5), (0, 3)], pot=3)
    waiting, _ = old_session("femkort", {}, "waiting", None, [(0, None)] * 3)

    MigrationExecutor(connection).migrate(AFTER)
    latest = MigrationExecutor(connection)
    latest.migrate(latest.loader.graph.leaf_nodes())  # later migrations keep the records; today's models read them

    records = {session.pk: session.match for session in GameSession.objects.all()}
    assert records[plain.pk] == {"dealer": 1, "wins": [3, 1, 2], "winners": [0]}
    assert records[pot.pk] == {"dealer": 2, "wins": [1, 0, 1], "winners": [], "chips": [7, 4, 4], "tiebreak": [1, 2]}
    assert records[tokens.pk] == {"dealer": 0, "tokens": [4, 5, 3], "pot": 3}
    assert records[waiting.pk] == {}
    assert GameSession.objects.get(pk=tokens.pk).game == "letzter_stich"  # migration 0028: the game's name now
    pot_match = match_of(GameSession.objects.get(pk=pot.pk), list(range(3)))
    assert (pot_match.chips, pot_match.tiebreak, pot_match.dealer) == ((7, 4, 4), (1, 2), 2)
    ls_match = match_of(GameSession.objects.get(pk=tokens.pk), list(range(3)))
    assert (ls_match.tokens, ls_match.pot) == ((4, 5, 3), 3)
    page = Client().get(f"/sessions/{plain.pk}/").content.decode()
    assert "3 wins" in page
    assert "1 win" in page
    assert "3 tokens" in Client().get(f"/sessions/{tokens.pk}/").content.decode()


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("back_to_the_latest_schema")
def test_letzter_stich_rows_take_the_new_name_and_old_addresses_still_work(players, client):
    before = [("games", "0027_connection_without_table")]
    after = [("games", "0028_letzter_stich_named_with_underscore")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    apps = executor.loader.project_state(before).apps
    OldSession, OldStanding = apps.get_model("games", "GameSession"), apps.get_model("games", "Standing")
    old = OldSession.objects.create(game="letzter-stich", options={"tokens": 5}, seat_count=3, host_id=players[0].pk)
    OldStanding.objects.create(game="letzter-stich", against="people", user_id=players[0].pk)
    MigrationExecutor(connection).migrate(after)
    latest = MigrationExecutor(connection)
    latest.migrate(latest.loader.graph.leaf_nodes())  # the later migrations too: the models below are today's

    assert GameSession.objects.get(pk=old.pk).game == "letzter_stich"
    assert Standing.objects.get(user=players[0]).game == "letzter_stich"
    moved = client.get("/rules/letzter-stich/")
    assert (moved.status_code, moved["Location"]) == (301, "/rules/letzter_stich/")
