"""One function decides what a viewer may see of a deal: a seat, a spectator, or everyone once it is over."""

import random

import pytest

from games.engine import GAMES, TrickGame
from games.engine.game import EVERYONE, HiddenCards
from games.engine.records import public_record, replay
from games.engine.tricks.seat_view import view_for


# Trick games that start with the first lead; those with an auction are below.
@pytest.mark.parametrize(
    "game",
    [
        name
        for name, rules in GAMES.items()
        if isinstance(rules, TrickGame) and type(rules).auction_to_act is TrickGame.auction_to_act
    ],
)
def test_every_hand_is_shown_only_once_the_deal_is_over(game):
    rules = GAMES[game]
    state = rules.deal(players=3, dealer=0, options=rules.parse_options({}), rng=random.Random(7))
    with pytest.raises(HiddenCards):
        view_for(state, EVERYONE)
    for seat in (0, 1, None):
        seen = view_for(state, seat)
        assert not seen.dealt
        with pytest.raises(HiddenCards):
            public_record(seen)
        others = {card for other in state.seats if other != seat for card in state.hand(other)}
        assert not set(seen.hand) & others
    while not state.is_over:
        state = state.play(state.legal_cards()[-1])
    everyone = view_for(state, EVERYONE)
    assert everyone.dealt == state.dealt
    record = public_record(everyone)
    assert replay(record)["winner"] == state.winner


@pytest.mark.parametrize("game", ["nap", "euchre"])
@pytest.mark.parametrize("seed", range(40))
def test_games_with_an_auction_show_the_discard_to_the_dealer_alone_and_exports_replay(game, seed):
    rules = GAMES[game]
    rng = random.Random(seed)
    players = max(3, rules.min_players)
    state = rules.deal(players=players, dealer=seed % players, options=rules.parse_options({}), rng=rng)
    while not state.is_over:
        for seat in (*range(players), None):
            seen = view_for(state, seat)
            others = {card for other in range(players) if other != seat for card in state.hand(other)}
            assert not set(seen.hand) & others
            assert seen.upcard == state.upcard
            if seat != state.dealer:
                assert all(call == "discard" or not call.startswith("discard") for call in seen.calls)
        state = state.apply(rng.choice(state.legal_actions()))
    record = public_record(view_for(state, EVERYONE))
    again = replay(record)
    assert again["result"] == rules.replay_outcome(None, state)["result"]
    discards = [call for call in state.calls if call.startswith("discard")]
    exported = [call for call in record["actions"] if call.startswith("discard")]
    if state.dealer in state.seats or not discards:
        assert exported == discards  # given away by the cards the dealer played anyway
    else:
        assert exported == ["discard"]  # the dealer sat out: the card is never shown
