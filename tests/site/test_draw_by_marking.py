"""Discards at the table are made in the hand itself, not by a button per card above it: Auction
Forty-Five's draw marks the cards to discard (checkboxes, without JavaScript too) and one button
takes them with the draw, in one move, all or nothing; a discard of one card (Euchre's dealer) is a
tap on the card."""

from __future__ import annotations

import random
import re

import pytest
from django.urls import reverse
from django.utils import translation

from games import services
from games.engine import get_game
from games.models import Play
from tests.site_helpers import current_deal, logged_in, table_page, table_with

from .test_forty_five_tables import sensible_bids

pytestmark = pytest.mark.django_db
RULES = get_game("auction_forty_five")


@pytest.fixture(autouse=True)
def in_english():
    with translation.override("en"):
        yield


def at_my_draw(make_user, seed: int = 3):
    """Anna (seat 0) against three computers, at her turn in a deal's draw."""
    anna = make_user("anna")
    session = table_with(anna, "auction_forty_five", {}, 4, computers=(1, 2, 3))
    rng = random.Random(seed)
    session = services.session_start(session_id=session.pk, user=anna, rng=rng)
    while True:
        services.computers_play_all(session_id=session.pk, rng=rng)
        session.refresh_from_db()
        state = current_deal(session)
        if state.to_act == 0 and RULES.progress(state).step == "draw":
            return anna, session, state
        action = sensible_bids(state, rng)
        services.action_take(session_id=session.pk, user=anna, action=action, seen_seq=session.seq, rng=rng)


def test_the_hands_cards_are_checkboxes_and_one_button_draws(make_user):
    anna, session, state = at_my_draw(make_user)
    html, table = table_page(session, anna)
    hand = state.hand(0)
    assert table.marking is not None
    assert table.marking.cards == frozenset(hand)
    assert table.marking.action == "draw"
    assert table.marking.label == "Discard the marked cards"  # a page without JavaScript
    assert table.marking.counted[:3] == ("Keep my cards", "Discard 1, draw 1", "Discard 2, draw 2")
    assert table.marking.most == len(hand)
    for card in hand:
        assert re.search(rf'<input type="checkbox" name="marked" value="{card}"', html)
    assert "discard:" not in html  # no button per card
    assert not table.choices  # nothing else in the bar
    assert html.count('name="move" value="draw"') == 1
    assert 'data-marked-2="Discard 2, draw 2"' in html


def test_the_marked_cards_are_discarded_and_drawn_for_in_one_move(make_user):
    anna, session, state = at_my_draw(make_user)
    hand = sorted(state.hand(0))
    marked = [hand[3], hand[0]]
    seq = session.seq
    response = logged_in(anna).post(
        reverse("action_take", args=[session.pk]), {"move": "draw", "seq": seq, "marked": marked}
    )
    assert response.status_code == 302
    session.refresh_from_db()
    mine = [play.action for play in Play.objects.filter(deal__session=session, seq__gt=state.action_count)]
    # The rules' own actions, each recorded: the discards in the hand's order as shown, then the draw.
    shown = [card for card in state.view(0).hand if card in marked]
    assert mine[:3] == [f"discard:{card}" for card in shown] + ["draw"]
    assert session.seq == seq + 3 + len(mine[3:])  # and whatever the computers did after
    after = current_deal(session)
    assert not set(marked) & set(after.hand(0))
    assert len(after.hand(0)) == 5


def test_a_marked_card_not_in_the_hand_refuses_the_whole_move(make_user):
    anna, session, state = at_my_draw(make_user)
    stranger = next(card for card in ("AS", "KS", "QS", "JS", "TS", "9S") if card not in state.hand(0))
    seq, plays = session.seq, Play.objects.count()
    client = logged_in(anna)
    response = client.post(
        reverse("action_take", args=[session.pk]),
        {"move": "draw", "seq": seq, "marked": [state.hand(0)[0], stranger]},
        headers={"HX-Request": "true"},
    )
    page = response.content.decode()
    assert "is not in your hand: nothing changed." in page
    session.refresh_from_db()
    assert session.seq == seq
    assert Play.objects.count() == plays
    assert current_deal(session).hand(0) == state.hand(0)


def test_the_euchre_dealers_discard_is_a_tap_on_the_card(make_user):
    people = [make_user(name) for name in ("anna", "bo", "cleo", "dag")]
    session = table_with(people[0], "euchre", {}, 4, people=[(user, seat) for seat, user in enumerate(people) if seat])
    session = services.session_start(session_id=session.pk, user=people[0], rng=random.Random(8))
    state = current_deal(session)
    services.action_take(session_id=session.pk, user=people[state.to_act], action="order", seen_seq=session.seq)
    session.refresh_from_db()
    state = current_deal(session)
    dealer = people[state.dealer]
    html, table = table_page(session, dealer)
    assert len(table.hand) == 6  # the upcard picked up
    held = state.hand(state.dealer)
    assert {card.card: card.action for card in table.hand} == {card: f"discard:{card}" for card in held}
    assert all(card.legal for card in table.hand)  # each stands up, to be tapped
    assert not table.choices  # no button per card above the hand
    assert table.marking is None
    for card in state.hand(state.dealer):
        assert f'name="move" value="discard:{card}" data-card="{card}"' in html
    gone = state.hand(state.dealer)[2]
    response = logged_in(dealer).post(
        reverse("action_take", args=[session.pk]), {"move": f"discard:{gone}", "seq": session.seq}
    )
    assert response.status_code == 302
    assert current_deal(session).calls[-1] == f"discard:{gone}"
