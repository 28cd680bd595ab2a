"""Auction Forty-Five and Forty-Five on the site: the bid, the bidder, the trump and the sides'
scores on the table, the draw hidden from the others, robbing as buttons, tables of the wrong
size refused, sessions played to the end with exports that replay through the engine."""

from __future__ import annotations

import random

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games import services
from games.engine import get_game
from games.history import session_export
from games.models import GameSession, Standing
from games.services import fair
from tests.site_helpers import exports_replay, play_to_the_end, table_with

pytestmark = pytest.mark.django_db


def sensible_bids(state, rng: random.Random) -> str:
    """Bid, hold and call by the game's rule of thumb (random bids of 30 keep failing, and a session
    whose scores only fall never ends); draw and play at random."""
    if state.trick is None and any(action.startswith(("bid:", "call:")) for action in state.legal_actions()):
        return get_game(state.game).rule_of_thumb(state)
    return rng.choice(state.legal_actions())


@pytest.fixture(autouse=True)
def in_english():
    with translation.override("en"):
        yield


@pytest.mark.parametrize(("seed", "rob"), [(1, False), (2, True)])
def test_auction_forty_five_with_a_friend_as_partner_against_two_computers(make_user, seed, rob):
    anna, bo = make_user("anna"), make_user("bo")
    session = table_with(
        anna, "auction_forty_five", {"rob_the_pack": rob}, 4, people=((bo, 2),), computers=(1, 3), level="medium"
    )
    session = services.session_start(session_id=session.pk, user=anna, rng=random.Random(seed))
    seen = {"stock": False, "bid": False, "draw": False, "result": ""}

    def look(state, html, table) -> None:
        panels = {panel.position: panel for panel in table.seats}
        assert panels[0].partner == "bo"
        assert panels[0].team == panels[2].team != panels[1].team
        assert any(line.startswith("anna and bo: ") for line in table.header.standing)
        seen["stock"] |= 'class="pile-area stock">Stock' in html
        seen["bid"] |= "won the bidding at" in html
        seen["draw"] |= "draws " in html or "keeps their cards" in html
        if table.last_deal:
            seen["result"] = table.last_deal

    play_to_the_end(session, {0: anna, 2: bo}, random.Random(seed), look, choose=sensible_bids)
    assert seen["stock"]
    assert seen["bid"]
    assert seen["draw"]
    assert seen["result"].startswith("Deal ") or "thrown in" in seen["result"]
    rules = get_game("auction_forty_five")
    match = rules.match_from_record(session.match, players=4, options=rules.parse_options({"rob_the_pack": rob}))
    winners = set(match.winners)
    assert winners in ({0, 2}, {1, 3})
    assert max(match.points) >= 120
    assert [seat.won for seat in session.seats.order_by("position")] == [p in winners for p in range(4)]
    standings = {s.user_id: s for s in Standing.objects.filter(game="auction_forty_five", user__isnull=False)}
    assert standings[anna.pk].sessions_won == standings[bo.pk].sessions_won == int(0 in winners)
    assert "win the session as partners" in Client().get(reverse("session", args=[session.pk])).content.decode()
    exports_replay(session, rules)


@pytest.mark.parametrize("players", [2, 6])
def test_forty_five_against_computers_plays_to_45(make_user, players):
    anna = make_user("anna")
    rng = random.Random(players)
    session = table_with(anna, "forty_five", {}, players, computers=range(1, players))
    session = services.session_start(session_id=session.pk, user=anna, rng=rng)
    seen = {"upcard": False, "rob": False}

    def look(state, html, table) -> None:
        seen["upcard"] |= "Upcard:" in html
        seen["rob"] |= "Rob the " in html

    play_to_the_end(session, {0: anna}, rng, look)
    assert seen["upcard"]
    rules = get_game("forty_five")
    match = rules.match_from_record(session.match, players=players, options=rules.parse_options({}))
    assert max(match.points) >= 45
    assert len(match.winners) == players // 2
    exports_replay(session, rules)


@pytest.mark.parametrize(("game", "seats"), [("auction_forty_five", 3), ("auction_forty_five", 5), ("forty_five", 3)])
def test_a_table_of_a_size_the_game_is_not_played_at_cannot_be_opened(make_user, game, seats):
    anna = make_user("anna")
    with pytest.raises(services.TableError) as error:
        services.table_create(host=anna, seats=seats, game=game)
    assert (
        error.value.message
        == "This game is played at " + ("4 or 6" if game == "auction_forty_five" else "2, 4 or 6") + " seats."
    )
    assert not GameSession.objects.exists()
    client = Client()
    client.force_login(anna)
    response = client.post(reverse("table_create"), {"game": game, "seats": seats})
    assert response.status_code in (200, 400)
    assert not GameSession.objects.exists()


def test_a_six_seat_table_with_one_empty_seat_cannot_start(make_user):
    anna = make_user("anna")
    session = table_with(anna, "auction_forty_five", {}, 6, computers=range(1, 5))
    with pytest.raises(services.TableError) as error:
        services.session_start(session_id=session.pk, user=anna, rng=random.Random(1))
    assert error.value.code == "seat_count"
    session.refresh_from_db()
    assert session.status == GameSession.Status.WAITING


def test_the_rules_pages_draw_every_trump_ladder(client):
    for game in ("auction_forty_five", "forty_five"):
        page = client.get(reverse("rules", args=[game])).content.decode()
        for card in ("5H", "JD", "AH", "2C", "TS"):
            assert f'data-card="{card}"' in page
        assert page.count('data-card="AH"') >= 4  # the A♥ in every ladder


@pytest.mark.parametrize(
    ("game", "players", "stored", "target"),
    [("auction_forty_five", 4, {"rob_the_pack": False}, 120), ("forty_five", 2, {}, 45)],
)
def test_a_table_stored_before_points_to_win_plays_to_the_rules_target_and_its_seeded_deal_verifies(
    make_user, monkeypatch, game, players, stored, target
):
    seeds = random.Random(7)  # the committed seeds, drawn the same on every run
    monkeypatch.setattr(fair, "new_seed", lambda: seeds.randbytes(32))
    anna = make_user("anna")
    session = table_with(anna, game, {}, players, computers=range(1, players), level="medium")
    GameSession.objects.filter(pk=session.pk).update(options=stored)  # as tables were stored before the choice
    session = services.session_start(session_id=session.pk, user=anna)  # from a committed seed
    play_to_the_end(session, {0: anna}, random.Random(players), choose=sensible_bids)
    rules = get_game(game)
    match = rules.match_from_record(session.match, players=players, options=rules.parse_options(stored))
    assert max(match.points) >= target  # no side set out: that is a table option, off here
    exported = session_export(session)
    assert all(record["options"] == stored for record in exported)  # written as before
    assert exported[0]["fair"]["options"] == stored  # the first deal came from a committed seed
    exports_replay(session, rules)  # and verifies against it
