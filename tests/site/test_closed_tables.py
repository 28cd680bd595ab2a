"""A table closed before it started is "closed", not "abandoned", and never enters anyone's history."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games import services
from games.models import GameSession
from tests.site_helpers import started_table, table_with

BEFORE = [("games", "0021_deal_reviews")]
AFTER = [("games", "0022_closed_tables")]


@pytest.mark.django_db
def test_a_table_closed_before_it_started_is_closed_and_not_in_history(players):
    waiting = table_with(players[0], "femkort", {}, 4, people=[(players[1], 1)])
    closed = services.session_abandon(session_id=waiting.pk, user=players[0])
    assert closed.status == GameSession.Status.CLOSED
    playing = started_table(players)
    abandoned = services.session_abandon(session_id=playing.pk)
    assert abandoned.status == GameSession.Status.ABANDONED  # it was played: an abandoned session
    for user in players[:2]:
        profile = Client().get(reverse("player", args=[user.username])).content.decode()
        assert f"/sessions/{closed.pk}/" not in profile
        assert f"/sessions/{abandoned.pk}/" in profile
    page = Client().get(reverse("table", args=[closed.pk])).content.decode()
    assert "closed before it started" in page
    with pytest.raises(services.TableError, match="This table was closed"):
        services.seat_take(session_id=closed.pk, user=players[2])


@pytest.fixture
def back_to_the_latest_schema():
    yield
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("back_to_the_latest_schema")
def test_old_tables_abandoned_before_they_started_become_closed(players):
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    Session = executor.loader.project_state(BEFORE).apps.get_model("games", "GameSession")
    never = Session.objects.create(game="femkort", status="abandoned", host_id=players[0].pk, seat_count=3)
    played = Session.objects.create(
        game="femkort", status="abandoned", host_id=players[0].pk, seat_count=3, started=timezone.now()
    )
    MigrationExecutor(connection).migrate(AFTER)
    latest = MigrationExecutor(connection)
    latest.migrate(latest.loader.graph.leaf_nodes())  # later migrations keep the rows; today's model reads them
    assert GameSession.objects.get(pk=never.pk).status == GameSession.Status.CLOSED
    assert GameSession.objects.get(pk=played.pk).status == GameSession.Status.ABANDONED
