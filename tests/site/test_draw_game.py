"""The seam proof for a game where seats draw and discard (``tests/draw_game.py``): registered from
the tests alone, it plays through the lobby, its rules page, the table over HTTP and the
websocket, the replay, the export and ``replay`` round trip, the history pages, the leaderboard,
ratings and the arena at every computer level; no seat ever sees another's hand or the stock."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest
from channels.db import database_sync_to_async
from django.test import Client
from django.urls import reverse

from games import services
from games.bots.arena import run_arena
from games.bots.generic import generic_player
from games.engine import GAMES
from games.engine.game import EVERYONE, IllegalPlay, InvalidDeal
from games.engine.records import replay
from games.engine.verify import verify_each
from games.models import GameSession, Seat, Standing
from games.stored import deal_state
from tests.draw_game import DECK, DRAW, RUMMY, TAKE, is_goal
from tests.live_helpers import DATA_CARD, connect, frame_seq, session_over_sockets
from tests.site_helpers import history_pages, open_from_the_lobby

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def rummy(monkeypatch):
    monkeypatch.setitem(GAMES, RUMMY.name, RUMMY)
    return RUMMY


def hidden(state, seat: int) -> set[str]:
    """Cards ``seat`` may not see: the others' hands and the stock, less every card that has lain
    face up on the discard pile (a card taken from it is known to be in the taker's hand)."""
    public = {state.upcard} | {action for _, action in state.actions if action not in (DRAW, TAKE)}
    others = {card for other, hand in enumerate(state.hands) if other != seat for card in hand}
    return (others | {card for card in state.stock if card}) - public - set(state.hands[seat])


def dealt(**setup):
    return RUMMY.start(
        {
            "dealer": 1,
            "hands": [["9S", "TS", "AH"], ["QD", "QC", "KH"]],
            "upcard": "JS",
            "stock": [card for card in DECK if card not in {"9S", "TS", "AH", "QD", "QC", "KH", "JS"}],
        }
        | setup
    )


def test_a_seat_draws_or_takes_then_discards_and_knocks_with_a_run():
    state = dealt()
    assert state.to_act == 0  # the dealer's left starts
    assert state.legal_actions() == [DRAW, TAKE]
    with pytest.raises(IllegalPlay) as refused:
        state.apply("AH")
    assert refused.value.rule == "draw_first"
    state = state.apply(TAKE)
    assert state.hands[0] == ("9S", "TS", "AH", "JS")
    with pytest.raises(IllegalPlay) as refused:
        state.apply("JS")  # the card just taken may not go straight back
    assert refused.value.rule == "taken_card"
    assert "JS" not in state.legal_actions()
    state = state.apply("AH")
    assert state.is_over
    assert state.outcome().winners == (0,)
    assert is_goal(state.hands[0])


def test_a_stock_run_out_draws_the_deal():
    hands = [["9S", "TH", "AH"], ["QD", "JC", "KH"]]
    stock = [card for card in DECK if card not in {"9S", "TH", "AH", "QD", "JC", "KH", "JS"}]
    with pytest.raises(InvalidDeal):
        dealt(hands=hands, stock=stock[:2])  # the deck is not all there
    seen = dealt(hands=hands, stock=[*stock[:2], *[None] * 15])  # a record's stock: what was drawn, then unseen
    assert not seen.apply(DRAW).apply("9S").apply(DRAW).apply("QD").is_over
    state = dealt(hands=hands, stock=stock)
    rng = random.Random(5)
    while not state.is_over:
        actions = [a for a in state.legal_actions() if a in (DRAW, TAKE) or not is_goal_after(state, a)]
        state = state.apply(DRAW if DRAW in actions else rng.choice(actions))
    assert state.stock == ()
    assert state.outcome().winners == ()
    assert state.view(EVERYONE).result.message == "The stock ran out: deal %(number)d is drawn."


def is_goal_after(state, card) -> bool:
    return is_goal([c for c in state.hands[state.to_act] if c != card])


async def test_a_draw_and_discard_game_plays_a_whole_session_everywhere(players):
    session = await database_sync_to_async(_open_from_the_lobby)(players)
    sockets = [await connect(session.pk, user) for user in players]
    session, received, hidden_at, moves = await session_over_sockets(
        session.pk, sockets, lambda state, moves: RUMMY.rule_of_thumb(state), hidden
    )
    assert session.status == GameSession.Status.FINISHED
    assert moves >= 2 * 2  # two deals won, each at least a draw and a discard
    shown = set()
    for seat, frames in received.items():
        for frame in frames:
            seq = frame_seq(frame)
            if seq is not None:
                cards = set(DATA_CARD.findall(frame))
                assert not cards & hidden_at[seq][seat], (seat, seq)
                shown |= cards
    assert any('class="pile-area stock"' in frame for frame in received[0])  # the stock, face down
    assert any('class="pile-area discards"' in frame for frame in received[0])  # the top discard, face up
    assert not any('aria-label="0 cards face down"' in frame for frame in received[0])  # only it, where none lie under
    assert any('value="draw"' in frame for frame in received[0])  # the stock's button
    assert any("knocks" in frame for frame in received[0])  # the game's own score on the seats

    deals = await database_sync_to_async(session.deals.count)()
    assert deals >= 2  # first to two deals
    pages = await database_sync_to_async(history_pages)(session, 2)
    assert "knock" in pages["page"]
    assert pages["replay"] == 200
    winners = await database_sync_to_async(
        lambda: list(session.deals.order_by("number").values_list("winner", flat=True))
    )()
    assert len(pages["exported"]) == deals
    assert [replay(record).get("winner") for record in pages["exported"]] == winners
    assert verify_each(pages["exported"]) == [[]] * deals  # each deal again from its revealed seed
    for record in pages["exported"]:  # the stock nobody drew stays unseen in the export
        assert len(record["setup"]["stock"]) + 3 * 3 + 1 == len(DECK)
    assert await database_sync_to_async(Standing.objects.filter(game=RUMMY.name).count)() == 3
    assert players[0].name in pages["board"]
    assert (
        await database_sync_to_async(lambda: Seat.objects.filter(session=session, rating_after__isnull=False).count())()
        == 3
    )


def engine(*argv: str, stdin: str = "") -> subprocess.CompletedProcess:
    """The engine's own command line, with the game registered as the site's test registers it."""
    program = (
        "import sys; from games.engine import GAMES; from games.engine.__main__ import main;"
        "from tests.draw_game import RUMMY; GAMES[RUMMY.name] = RUMMY; sys.exit(main(sys.argv[1:]))"
    )
    return subprocess.run(
        [sys.executable, "-c", program, *argv], input=stdin, capture_output=True, text=True, check=False
    )


def test_the_command_line_replays_and_counts_a_game_it_was_never_told_of():
    done = engine("replay", stdin=json.dumps(dealt().apply(TAKE).apply("AH").public_record()))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"actions": 2, "winner": 0, "winners": [0], "values": [1.0, -1.0]}
    setup = {"upcard": "JS", "stock": dealt().stock}
    hands = ["--hands", "9S,TS,AH/QD,QC,KH", "--setup", json.dumps(setup)]
    counted = engine("perft", "--game", RUMMY.name, "--dealer", "1", "--depth", "2", *hands)
    assert counted.returncode == 0, counted.stderr
    assert counted.stdout.split()[-1] == "7"  # draw then any of four, or take then any of three


def test_a_taken_card_sent_straight_back_is_refused_in_the_games_words(players):
    session = _open_from_the_lobby(players)
    deal = session.deals.order_by("-number").first()
    state = deal_state(deal)
    mover = Seat.objects.get(session=session, position=state.to_act).user
    page = Client()
    page.force_login(mover)
    url = reverse("table", args=[session.pk])
    shown = page.get(url).content.decode()
    assert f'value="{DRAW}"' in shown  # two buttons: the stock or the top discard
    assert f'value="{TAKE}"' in shown
    move = reverse("action_take", args=[session.pk])
    page.post(move, {"move": TAKE, "seq": session.seq})
    session.refresh_from_db()
    state = deal_state(deal)
    taken = state.taken
    assert taken is not None
    with pytest.raises(services.IllegalCard) as refused:
        services.action_take(session_id=session.pk, user=mover, action=taken, seen_seq=session.seq)
    assert refused.value.code == "taken_card"
    assert refused.value.message == "The card taken from the discard pile cannot go straight back."
    shown = page.get(url).content.decode()
    assert "cannot go straight back" in shown  # said beside the hand when the taken card is tried
    refused_page = page.post(move, {"move": taken, "seq": session.seq}, follow=True).content.decode()
    assert "cannot go straight back" in refused_page
    assert deal_state(deal) == state
    other = next(card for card in state.hands[state.to_act] if card != taken)
    page.post(move, {"move": other, "seq": session.seq})
    assert list(deal.plays.order_by("-seq").values_list("action", flat=True)[:1]) == [other]


def test_the_rules_page_is_the_games_own_text():
    page = Client().get(reverse("rules", args=[RUMMY.name])).content.decode()
    assert "Rules of Knock Rummy" in page
    assert "you knock and win the deal" in page
    assert "Deals to win" in page  # the table options, from their declaration


def test_the_views_hide_the_stock_and_the_other_hands():
    state = RUMMY.start(
        RUMMY.setup(RUMMY.new_match(players=3, options=RUMMY.parse_options({}), rng=random.Random(2)), random.Random(3))
    )
    rng = random.Random(1)
    while not state.is_over:
        for seat in range(3):
            seen = state.view(seat)
            cards = set(seen.hand) | {p.card for area in seen.areas for p in area.cards}
            cards |= {card for shown in seen.seats for card in shown.cards}
            assert not cards & hidden(state, seat)
        state = state.apply(rng.choice(state.legal_actions()))
    over = state.view(EVERYONE)
    assert {c for s in over.seats for c in s.cards} == {c for h in state.hands for c in h}
    assert not {p.card for area in over.areas for p in area.cards} & {c for c in state.stock if c}


def test_the_arena_plays_a_draw_and_discard_game_at_every_level():
    for hero in ("easy", "medium", "strong"):
        result = run_arena(game=RUMMY.name, players=3, deals=6, seed=1, hero=hero, field="easy")
        assert result.deals == 6
        assert result.faults == 0
        assert len(result.values) == 6
    view = dealt().apply(TAKE).view(0)
    assert generic_player("strong", random.Random(1), RUMMY.name).choose(view) == "AH"  # knocks when it can


def _open_from_the_lobby(players) -> GameSession:
    host = Client()
    host.force_login(players[0])
    lobby = host.get(reverse("lobby") + f"?game={RUMMY.name}").content.decode()
    assert "Knock Rummy" in lobby
    assert "Deals to win" in lobby
    session = open_from_the_lobby(players, RUMMY.name, {"target": 2})
    page = host.get(reverse("table", args=[session.pk])).content.decode()
    assert "Stock" in page
    assert "Discard pile" in page
    return session
