"""One function decides what a viewer may see of a deal: a seat, a spectator, or everyone once it is over."""

import random

import pytest

from games.engine import GAMES
from games.engine.records import public_record, replay
from games.engine.views import EVERYONE, HiddenCards, view_for


# The games the site shows; the views of a deal's bids and hidden discard come with their tables.
@pytest.mark.parametrize("game", [name for name, rules in GAMES.items() if rules.on_site])
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
