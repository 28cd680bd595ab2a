"""The seam proof: a game defined only in the tests (``tests/seam_game.py``) is registered and
played through the lobby, the services, the websocket consumer, the history pages, the export
and the arena, with no change anywhere else."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from django.test import Client
from django.urls import reverse

from games.bots.arena import run_arena
from games.engine import GAMES
from games.engine.records import replay
from games.models import GameSession, Standing
from tests.live_helpers import (
    DATA_CARD,
    connect,
    frame_seq,
    hidden_from,
    session_over_sockets,
)
from tests.seam_game import THREE_CROWNS
from tests.site_helpers import history_pages
from tests.site_helpers import open_from_the_lobby as from_the_lobby

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def crowns(monkeypatch):
    monkeypatch.setitem(GAMES, THREE_CROWNS.name, THREE_CROWNS)
    return THREE_CROWNS


def open_from_the_lobby(players) -> GameSession:
    host = Client()
    host.force_login(players[0])
    assert "Deals to win" in host.get(reverse("lobby") + "?game=three-crowns").content.decode()
    return from_the_lobby(players, "three-crowns", {"target": 2})


async def test_a_game_from_the_tests_plays_a_whole_session_everywhere(players):
    session = await database_sync_to_async(open_from_the_lobby)(players)
    sockets = [await connect(session.pk, user) for user in players]
    session, received, hidden_at, moves = await session_over_sockets(
        session.pk, sockets, lambda state, moves: state.legal_cards()[moves % len(state.legal_cards())], hidden_from
    )
    assert session.status == GameSession.Status.FINISHED
    assert moves == 9 * await database_sync_to_async(session.deals.count)()
    for seat, frames in received.items():
        for frame in frames:
            seq = frame_seq(frame)
            if seq is not None:
                assert not set(DATA_CARD.findall(frame)) & hidden_at[seq][seat]
    assert any("2 crowns" in frame for frame in received[0])  # the game's own score on the seats

    pages = await database_sync_to_async(history_pages)(session, 9)
    assert "2 crowns" in pages["page"]
    assert pages["replay"] == 200
    assert [replay(record)["winner"] for record in pages["exported"]] == await database_sync_to_async(
        lambda: list(session.deals.order_by("number").values_list("winner", flat=True))
    )()
    assert await database_sync_to_async(Standing.objects.filter(game="three-crowns").count)() == 3
    assert players[0].name in pages["board"]


def test_the_arena_plays_a_game_from_the_tests():
    for hero in ("easy", "medium", "strong"):
        result = run_arena(game="three-crowns", players=3, deals=12, seed=1, hero=hero, field="medium")
        assert result.deals == 12
        assert result.faults == 0
        assert 0 <= result.score <= 12
