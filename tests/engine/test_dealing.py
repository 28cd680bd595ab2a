"""Dealing: decks, packets from the dealer's left, reproducible seeds, validation."""

import random

import pytest

from games.engine import FEMKORT, LETZTER_STICH, InvalidDeal, NotationError, parse_card


class DeckOrder(random.Random):
    """A "shuffle" that leaves the deck as it is and cuts at 1, so packets can be checked by eye."""

    def shuffle(self, x):
        pass

    def randrange(self, start, stop=None, step=1):
        return start


def test_femkort_deals_packets_of_three_then_two_from_the_dealers_left():
    state = FEMKORT.deal(players=3, dealer=1, options=FEMKORT.parse_options(None), rng=DeckOrder())
    deck = list(FEMKORT.deck(3))
    deck = deck[1:] + deck[:1]
    # Seat 2 (left of dealer 1) gets cards 0-2, seat 0 gets 3-5, seat 1 gets 6-8; then pairs.
    assert state.dealt[2] == (*deck[0:3], *deck[9:11])
    assert state.dealt[0] == (*deck[3:6], *deck[11:13])
    assert state.dealt[1] == (*deck[6:9], *deck[13:15])
    assert state.to_act == 2


def test_letzter_stich_deals_four_then_four():
    state = LETZTER_STICH.deal(players=4, dealer=3, options=LETZTER_STICH.parse_options(None), rng=DeckOrder())
    deck = list(LETZTER_STICH.deck(4))
    deck = deck[1:] + deck[:1]
    assert state.dealt[0] == (*deck[0:4], *deck[16:20])
    assert state.dealt[3] == (*deck[12:16], *deck[28:32])


@pytest.mark.parametrize(("players", "size", "ranks"), [(4, 32, set("789TJQKA")), (3, 24, set("9TJQKA"))])
def test_letzter_stich_decks(players, size, ranks):
    deck = LETZTER_STICH.deck(players)
    assert len(deck) == size == len(set(deck))
    assert {card[0] for card in deck} == ranks
    state = LETZTER_STICH.deal(
        players=players, dealer=0, options=LETZTER_STICH.parse_options(None), rng=random.Random(3)
    )
    assert sorted(c for hand in state.dealt for c in hand) == sorted(deck)
    assert all(len(hand) == 8 for hand in state.dealt)


def test_letzter_stich_has_no_five_player_deck():
    with pytest.raises(InvalidDeal):
        LETZTER_STICH.deck(5)


@pytest.mark.parametrize("players", range(3, 11))
def test_same_seed_same_deal_and_every_player_gets_five(players):
    options = FEMKORT.parse_options(None)
    first = FEMKORT.deal(players=players, dealer=0, options=options, rng=random.Random(42))
    again = FEMKORT.deal(players=players, dealer=0, options=options, rng=random.Random(42))
    other = FEMKORT.deal(players=players, dealer=0, options=options, rng=random.Random(43))
    assert first.dealt == again.dealt
    assert first.dealt != other.dealt
    cards = [card for hand in first.dealt for card in hand]
    assert len(cards) == len(set(cards)) == 5 * players


def test_a_hand_dealt_twice_is_refused():
    with pytest.raises(InvalidDeal, match="dealt twice"):
        FEMKORT.start_hands(
            dealt=[["AS", "KS", "QS", "JS", "TS"], ["AS", "2H", "3H", "4H", "5H"], ["2C", "3C", "4C", "5C", "6C"]],
            dealer=0,
            options=FEMKORT.parse_options(None),
        )


def test_wrong_hand_size_and_foreign_card_are_refused():
    options = LETZTER_STICH.parse_options(None)
    with pytest.raises(InvalidDeal, match="holds 4 cards"):
        FEMKORT.start_hands(dealt=[["AS", "KS", "QS", "JS"]] * 3, dealer=0, options=FEMKORT.parse_options(None))
    hands = [["2S", *LETZTER_STICH.deck(3)[1:8]], list(LETZTER_STICH.deck(3)[8:16]), list(LETZTER_STICH.deck(3)[16:])]
    with pytest.raises(InvalidDeal, match="not in the letzter_stich deck"):
        LETZTER_STICH.start_hands(dealt=hands, dealer=0, options=options)


@pytest.mark.parametrize("text", ["1S", "AX", "", "10H", None, 7])
def test_card_notation_is_strict(text):
    with pytest.raises(NotationError):
        parse_card(text)


def test_card_notation_accepts_lower_case():
    assert parse_card("th") == "TH"


def test_unknown_or_malformed_options_are_refused():
    with pytest.raises(InvalidDeal):
        FEMKORT.parse_options({"profile": "ancient"})
    with pytest.raises(InvalidDeal):
        FEMKORT.parse_options({"jokers": True})
    with pytest.raises(InvalidDeal):
        FEMKORT.parse_options({"target": 0})
