"""What the table's markup carries for the page's script: seats to place, plays to say, cards to focus."""

import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games import services
from games.selectors import table_snapshot, table_view
from games.stored import deal_state
from games.table_html import table_html
from tests.site_helpers import started_table

pytestmark = pytest.mark.django_db


def page_of(session, user) -> str:
    client = Client()
    client.force_login(user)
    return client.get(reverse("table", args=[session.pk])).text


def test_each_trick_card_names_its_seat_and_says_the_play_in_words(players):
    session = started_table(players)
    state = deal_state(session.deals.get())
    leader = state.to_act
    card = state.legal_cards()[0]
    services.action_take(session_id=session.pk, user=players[leader], action=card, seen_seq=session.seq)
    page = page_of(session, players[0])
    figure = re.search(r'<figure data-seat="(\d)" class="fresh" data-said="([^"]+)"', page)
    assert figure is not None
    assert int(figure.group(1)) == leader
    rank = {"A": "ace", "K": "king", "Q": "queen", "J": "jack", "T": "ten"}.get(card[0])
    suit = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}[card[1]]
    assert figure.group(2).startswith(f"{players[leader].username} plays the ")
    assert figure.group(2).endswith(f"of {suit}.")
    if rank:
        assert rank in figure.group(2)


def test_a_taken_trick_is_said_with_the_computers_short_name(players):
    session = started_table(players[:1], computers=2)
    state = deal_state(session.deals.get())
    while len(state.tricks) == 0:
        if state.to_act == 0:
            card = state.legal_cards()[0]
            services.action_take(session_id=session.pk, user=players[0], action=card, seen_seq=session.seq)
        else:
            services.computer_turn(session_id=session.pk, seen_seq=session.seq)
        session.refresh_from_db()
        state = deal_state(session.deals.get())
    page = page_of(session, players[0])
    winner = state.tricks[-1].winner
    said = re.search(r'class="felt-note trick-taken" data-said="([^"]+)"', page).group(1)
    name = players[0].username if winner == 0 else ("Birger", "Cleo")[winner - 1]
    assert said == f"{name} takes the trick."
    assert "(computer" not in said


def test_every_card_of_the_hand_stays_focusable_and_only_legal_ones_are_live(players):
    session = started_table(players)
    state = deal_state(session.deals.get())
    for seat, user in enumerate(players):
        buttons = re.findall(r'<button type="submit" name="move" value="(..)"([^>]*)>', page_of(session, user))
        assert len(buttons) == 5
        assert all(" disabled" not in rest for _, rest in buttons)
        live = {card for card, rest in buttons if 'aria-disabled="true"' not in rest}
        assert live == (set(state.legal_cards()) if seat == state.to_act else set())


def test_the_turn_sound_switch_is_kept_on_the_account(players):
    client = Client()
    client.force_login(players[0])
    answer = client.post(reverse("turn_sound"), {"on": "0"}, HTTP_HX_REQUEST="true")
    assert 'aria-pressed="false"' in answer.text
    players[0].refresh_from_db()
    assert players[0].turn_sound is False
    client.post(reverse("turn_sound"), {"on": "1"})
    players[0].refresh_from_db()
    assert players[0].turn_sound is True


def test_a_player_who_left_is_not_shown_online_even_with_the_page_open(players):
    session = started_table(players[:2], computers=1)
    leaver = players[1]
    services.session_leave(session_id=session.pk, user=leaver)
    everyone = frozenset(user.pk for user in players)  # both pages still open, sockets connected
    with translation.override("en"):
        table = table_view(table_snapshot(session.pk), players[0], online=everyone)
        html = table_html(table)
    panel = next(seat for seat in table.seats if seat.name == leaver.name)
    assert not panel.connected
    presence = re.search(rf'<span id="presence-{panel.position}" class="([^"]*)"[^>]*>([^<]*)<', html)
    assert presence.groups() == ("presence gone", "left the session")
    stayed = next(seat for seat in table.seats if seat.name == players[0].name)
    assert stayed.connected


def test_an_abandoned_table_waits_for_nobody(players):
    """The abandoned deal's state stays on show, but no seat is "to play" and no prompt asks or waits."""
    session = started_table(players)
    to_act = deal_state(session.deals.get()).to_act
    services.session_abandon(session_id=session.pk)
    for viewer in (players[to_act], players[(to_act + 1) % 3], None):
        view = table_view(table_snapshot(session.pk), viewer)
        assert view.prompt == ""
        assert not any(seat.to_act for seat in view.seats)
        assert not view.my_turn
    page = page_of(session, players[to_act])
    assert "This session was abandoned." in page
    assert "to play</span>" not in page
    assert re.search(r'<p id="prompt" class="prompt"\s*hidden>', page)
