"""Redeal by agreement: only before the first card, only if everyone agrees, same dealer."""

import random

import pytest

from games.engine import FEMKORT, InvalidDeal
from games.engine.tricks.redeal import RedealPoll


def table(**options):
    rng = random.Random(12)
    match = FEMKORT.new_match(players=3, options=FEMKORT.parse_options(options), rng=rng)
    return match, match.deal(rng), rng


def test_everyone_agreeing_means_the_same_dealer_deals_again():
    match, deal, rng = table(redeal=True)
    poll = RedealPoll.ask(deal, deal.seats[0])
    assert poll.outcome is None
    poll = poll.answer(deal.seats[1], agree=True)
    assert poll.outcome is None
    poll = poll.answer(deal.seats[2], agree=True)
    assert poll.outcome == "redeal"
    again = match.deal(rng)
    assert again.dealer == deal.dealer
    assert again.dealt != deal.dealt


def test_one_refusal_and_play_goes_on():
    _, deal, _ = table(redeal=True)
    poll = RedealPoll.ask(deal, 0).answer(1, agree=False)
    assert poll.outcome == "declined"
    with pytest.raises(InvalidDeal):
        poll.answer(2, agree=True)


def test_no_redeal_once_a_card_is_played_or_when_the_table_does_not_allow_it():
    _, deal, _ = table(redeal=True)
    with pytest.raises(InvalidDeal, match="before the first card"):
        RedealPoll.ask(deal.play(deal.legal_cards()[0]), 0)
    _, plain, _ = table()
    with pytest.raises(InvalidDeal, match="does not allow"):
        RedealPoll.ask(plain, 0)


def test_a_seat_answers_once():
    _, deal, _ = table(redeal=True)
    poll = RedealPoll.ask(deal, 0)
    with pytest.raises(InvalidDeal):
        poll.answer(0, agree=True)
