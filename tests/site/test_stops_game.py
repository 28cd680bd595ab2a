"""The seam proof for a game without tricks (``tests/stops_game.py``): registered from the tests
alone, it plays through the lobby, the table over HTTP and the websocket, the replay, the export
and ``replay`` round trip, the leaderboard, ratings and the arena at every computer level."""

from __future__ import annotations

import random
import re

import pytest
from channels.db import database_sync_to_async
from django.test import Client
from django.urls import reverse

from games import services
from games.bots.arena import run_arena
from games.cardnames import card_short
from games.engine import GAMES
from games.engine.game import EVERYONE, IllegalPlay
from games.engine.records import replay
from games.models import GameSession, Seat, Standing
from games.stored import deal_state
from tests.live_helpers import DATA_CARD, connect, frame_seq, session_over_sockets
from tests.site_helpers import history_pages, open_from_the_lobby
from tests.stops_game import BOODLE, DECK, STOPS

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def stops(monkeypatch):
    monkeypatch.setitem(GAMES, STOPS.name, STOPS)
    return STOPS


def hidden(state, seat: int) -> set[str]:
    """Cards ``seat`` may not see: the others' hands and the dead hand."""
    seen = set(state.hands[seat]) | {card for _, card in state.played}
    return set(DECK) - seen


def test_the_turn_goes_to_whoever_holds_the_next_card():
    state = STOPS.start(
        {
            "dealer": 2,
            "hands": [["9S", "JS", "QH", "KH"], ["TS", "9H", "TH"], ["QS", "AH", "JH"]],
            "chips": [9, 9, 9],
            "crown": 3,
        }
    )
    assert state.to_act == 0  # the dealer's left starts
    assert sorted(state.legal_actions()) == ["9S", "JS", "KH", "QH"]
    state = state.apply("9S")
    assert state.to_act == 1  # the ten of spades is seat 1's
    assert state.legal_actions() == ["TS"]
    with pytest.raises(IllegalPlay) as refused:
        state.apply("9H", seat=1)
    assert refused.value.rule == "next_in_run"
    state = state.apply("TS").apply("JS").apply("QS")  # 0, 2 in turn: not round the table
    assert state.played[-2:] == ((0, "JS"), (2, "QS"))
    assert state.run == ()  # KS and AS lie in the dead hand: a stop, and the last player starts again
    assert state.to_act == 2


async def test_a_game_without_tricks_plays_a_whole_session_everywhere(players):
    session = await database_sync_to_async(_open_from_the_lobby)(players)
    sockets = [await connect(session.pk, user) for user in players]
    rng = random.Random(4)
    session, received, hidden_at, moves = await session_over_sockets(
        session.pk, sockets, lambda state, moves: rng.choice(state.legal_actions()), hidden
    )
    assert session.status == GameSession.Status.FINISHED
    assert moves >= 2 * 3  # two deals, each at least three cards
    shown = set()
    for seat, frames in received.items():
        for frame in frames:
            seq = frame_seq(frame)
            if seq is not None:
                cards = set(DATA_CARD.findall(frame))
                assert not cards & hidden_at[seq][seat], (seat, seq)
                shown |= cards
    assert BOODLE in shown  # the boodle lies face up with its chips
    assert any(re.search(r'class="pile-area dead"', frame) for frame in received[0])  # the dead hand, face down
    assert any("chips" in frame for frame in received[0])  # the game's own score on the seats

    pages = await database_sync_to_async(history_pages)(session, 3)
    assert "chips" in pages["page"]
    assert pages["replay"] == 200
    winners = await database_sync_to_async(
        lambda: list(session.deals.order_by("number").values_list("winner", flat=True))
    )()
    assert [replay(record)["winner"] for record in pages["exported"]] == winners
    assert await database_sync_to_async(Standing.objects.filter(game=STOPS.name).count)() == 3
    assert players[0].name in pages["board"]
    assert (
        await database_sync_to_async(lambda: Seat.objects.filter(session=session, rating_after__isnull=False).count())()
        == 3
    )


def test_a_card_out_of_the_run_is_refused_in_the_games_words(players):
    session = _open_from_the_lobby(players)
    for _ in range(30):  # play on until someone must follow a run holding another card
        session.refresh_from_db()
        state = deal_state(session.deals.order_by("-number").first())
        mover = Seat.objects.get(session=session, position=state.to_act).user
        if state.run and len(state.hands[state.to_act]) > 1:
            break
        services.action_take(session_id=session.pk, user=mover, action=state.legal_actions()[0], seen_seq=session.seq)
    else:
        raise AssertionError("no run in 30 cards")
    wrong = next(card for card in state.hands[state.to_act] if card not in state.legal_actions())
    with pytest.raises(services.IllegalCard) as refused:
        services.action_take(session_id=session.pk, user=mover, action=wrong, seen_seq=session.seq)
    assert refused.value.message == f"Only the {card_short(state.legal_actions()[0])} may be played now."
    assert refused.value.code == "next_in_run"
    page = Client()
    page.force_login(mover)
    url = reverse("table", args=[session.pk])
    shown = page.get(url).content.decode()
    assert "may be played now" in shown  # said beside the hand when a card out of the run is tried
    assert f'name="move" value="{state.legal_actions()[0]}"' in shown  # the one card to play, as a form button
    # Over HTTP, as a page without JavaScript posts it: the wrong card changes nothing, the right one plays.
    move = reverse("action_take", args=[session.pk])
    refused_page = page.post(move, {"move": wrong, "seq": session.seq}, follow=True).content.decode()
    assert "may be played now" in refused_page
    deal = session.deals.order_by("-number").first()
    assert deal_state(deal) == state
    page.post(move, {"move": state.legal_actions()[0], "seq": session.seq})
    assert list(deal.plays.order_by("-seq").values_list("seat", "action")[:1]) == [
        (state.to_act, state.legal_actions()[0])
    ]


def test_every_view_hides_the_dead_hand_even_after_the_deal():
    state = STOPS.start(
        STOPS.setup(STOPS.new_match(players=3, options=STOPS.parse_options({}), rng=random.Random(2)), random.Random(3))
    )
    dead = set(DECK) - {card for hand in state.hands for card in hand}
    rng = random.Random(1)
    while not state.is_over:
        state = state.apply(rng.choice(state.legal_actions()))
    seen = state.view(EVERYONE)
    cards = {p.card for area in seen.areas for p in area.cards} | {c for s in seen.seats for c in s.cards}
    cards |= {p.card for s in seen.seats for p in s.played}
    assert not cards & dead
    assert seen.area("dead").count == 2


def test_the_arena_plays_a_game_without_tricks_at_every_level():
    for hero in ("easy", "medium", "strong"):
        result = run_arena(game=STOPS.name, players=3, deals=6, seed=1, hero=hero, field="easy")
        assert result.deals == 6
        assert result.faults == 0
        assert len(result.values) == 6  # chips won or lost, per deal


def _open_from_the_lobby(players) -> GameSession:
    host = Client()
    host.force_login(players[0])
    assert "Crown Stops" in host.get(reverse("lobby") + f"?game={STOPS.name}").content.decode()
    session = open_from_the_lobby(players, STOPS.name, {"deals": 2})
    page = host.get(reverse("table", args=[session.pk])).content.decode()
    assert "The crown&#39;s chips" in page  # the table's pieces are Jinja2's: markupsafe escapes ' so
    assert "Dead hand" in page
    return session
