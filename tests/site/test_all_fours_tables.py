"""Seven Up, Pitch and Smudge on the site: the turn-up, the stock and the set-aside cards on the
table, bids and trump making as buttons, partnerships, the hidden discards and stock, results by
category, ratings and exports that replay through the engine."""

from __future__ import annotations

import random

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games import services
from games.engine import get_game
from games.engine.records import replay
from games.history import _rivals, session_export
from games.models import GameSession, Standing
from games.services import fair
from tests.site_helpers import exports_replay, play_to_the_end, table_with

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def in_english():
    with translation.override("en"):
        yield


@pytest.mark.parametrize("seed", [1, 2])
def test_seven_up_in_partnerships_with_a_friend_against_two_computers(make_user, seed):
    anna, bo = make_user("anna"), make_user("bo")
    session = table_with(anna, "seven_up", {"partnerships": True}, 4, people=((bo, 2),), computers=(1, 3))
    session = services.session_start(session_id=session.pk, user=anna, rng=random.Random(seed))
    seen = {"turn-up": False, "stock": False, "result": False}

    def look(state, html, table) -> None:
        panels = {panel.position: panel for panel in table.seats}
        assert panels[0].partner == "bo"
        assert panels[0].team == panels[2].team != panels[1].team
        assert any("anna and bo" in line for line in table.header.standing)
        seen["turn-up"] |= "Turned up:" in html
        seen["stock"] |= 'class="pile-area stock">Stock' in html
        if table.last_deal:
            seen["result"] = table.last_deal

    play_to_the_end(session, {0: anna, 2: bo}, random.Random(seed), look)
    assert seen["turn-up"], seen
    assert seen["stock"], seen
    assert seen["result"].startswith("Deal ")
    assert "High: " in seen["result"]
    rules = get_game("seven_up")
    match = rules.match_from_record(session.match, players=4, options=rules.parse_options({"partnerships": True}))
    winners = set(match.winners)
    assert winners in ({0, 2}, {1, 3})
    assert max(match.points) >= 7
    seats = list(session.seats.order_by("position"))
    assert [seat.won for seat in seats] == [position in winners for position in range(4)]
    standings = {s.user_id: s for s in Standing.objects.filter(game="seven_up", user__isnull=False)}
    assert standings[anna.pk].sessions_won == standings[bo.pk].sessions_won == int(0 in winners)
    moved = [standings[user.pk].mu - 25 for user in (anna, bo)]
    assert all(m > 0 for m in moved) if 0 in winners else all(m < 0 for m in moved)
    assert "win the session as partners" in Client().get(reverse("session", args=[session.pk])).content.decode()
    assert "bo" not in [row["user__username"] for row in _rivals(anna)]  # a partner, not a rival
    exports_replay(session, rules)


# Seeds for sessions of a usual length: random bids can drag one out (Smudge's seed 3 took 73 deals).
@pytest.mark.parametrize(("game", "players", "seed"), [("pitch", 4, 4), ("smudge", 3, 1), ("seven_up", 2, 2)])
def test_a_table_against_computers_plays_to_the_end_and_the_first_to_seven_wins(make_user, game, players, seed):
    anna = make_user("anna")
    rng = random.Random(seed)
    session = table_with(anna, game, {}, players, computers=range(1, players))
    session = services.session_start(session_id=session.pk, user=anna, rng=rng)
    play_to_the_end(session, {0: anna}, rng)
    rules = get_game(game)
    match = rules.match_from_record(session.match, players=players, options=rules.parse_options({}))
    assert len(match.winners) == 1
    (winner,) = match.winners
    last = replay(session_export(session)[-1])["result"]
    if last.get("contract") == "smudge" and last["made"]:
        assert last["pitcher"] == winner  # a made smudge wins at once
    else:
        assert match.points[winner] >= 7
    assert [seat.won for seat in session.seats.order_by("position")] == [p == winner for p in range(players)]
    exports_replay(session, rules)


def test_partnerships_need_four_players_when_the_table_opens_and_when_it_starts(make_user):
    anna, bo = make_user("anna"), make_user("bo")
    with pytest.raises(services.TableError) as error:
        services.table_create(host=anna, seats=3, game="seven_up", options={"partnerships": True})
    assert error.value.code == "options"
    assert "four players" in error.value.message
    assert not GameSession.objects.exists()  # nothing was opened
    session = table_with(anna, "seven_up", {"partnerships": True}, 4, people=((bo, 2),), computers=(1,))
    with pytest.raises(services.TableError) as error:
        services.session_start(session_id=session.pk, user=anna, rng=random.Random(1))
    assert error.value.code == "options"
    session.refresh_from_db()
    assert session.status == GameSession.Status.WAITING  # still waiting for the fourth player
    assert session.seats.count() == 4


@pytest.mark.parametrize(("game", "stored"), [("pitch", {}), ("smudge", {}), ("pitch", {"set_out": False})])
def test_a_table_stored_without_set_out_plays_by_the_rules_and_writes_its_records_as_before(
    make_user, monkeypatch, game, stored
):
    seeds = random.Random(3)  # the committed seeds, drawn the same on every run
    monkeypatch.setattr(fair, "new_seed", lambda: seeds.randbytes(32))
    anna = make_user("anna")
    session = table_with(anna, game, {}, 3, computers=(1, 2), level="medium")
    GameSession.objects.filter(pk=session.pk).update(options=stored)  # {}: as tables were stored before the option
    session = services.session_start(session_id=session.pk, user=anna)  # from a committed seed
    play_to_the_end(session, {0: anna}, random.Random(3))
    rules = get_game(game)
    match = rules.match_from_record(session.match, players=3, options=rules.parse_options(stored))
    (winner,) = match.winners
    assert match.points[winner] >= 7 or replay(session_export(session)[-1])["result"].get("contract") == "smudge"
    exported = session_export(session)
    assert all(record["options"] == {} for record in exported)  # written as before the option
    assert exported[0]["fair"]["options"] == stored  # the first deal came from a committed seed
    exports_replay(session, rules)  # and verifies against it
