"""Computer partners on the site: a computer standing in for a person plays as the table's strongest
level and the seat says so; a person partnered by a computer asks it to play as partner to a
beginner (no going alone, no taking their trick, no lead into their void), a per-table choice."""

import random

import pytest
from django.test import Client
from django.urls import reverse

from games import rights, services
from games.bots import decide
from games.bots.partners import for_beginner
from games.engine import EUCHRE
from games.forms import TableForm
from games.models import GameSession
from games.services.play import _decided
from games.stored import deal_state
from tests.engine.test_partner_faux_pas import OVERTAKE, STRONG, start
from tests.site_helpers import started_table, table_page, table_with

pytestmark = pytest.mark.django_db


def test_a_stand_in_plays_as_the_tables_strongest_computer_and_the_seat_says_so(players):
    people_only = started_table(players[:3], game="nap", options={"rounds": 2})
    services.session_leave(session_id=people_only.pk, user=players[1])
    seat = people_only.seats.get(user=players[1])
    assert seat.stand_in == "strong"  # no computer at the table: the site's strongest
    html, _ = table_page(people_only, players[0])
    assert f"{players[1].name} left; the computer plays this seat to the end (strong)" in html

    with_easy = table_with(players[0], "nap", {"rounds": 2}, 3, people=[(players[1], 1)], computers=(2,))
    services.session_start(session_id=with_easy.pk, user=players[0])
    services.session_leave(session_id=with_easy.pk, user=players[1])
    assert with_easy.seats.get(user=players[1]).stand_in == "easy"  # as the table's own computer


def test_the_new_table_form_offers_beginner_partners_only_where_seats_play_in_partnerships():
    assert "beginner_partners" in TableForm(EUCHRE).fields
    assert "beginner_partners" not in TableForm(services.tables.get_game("femkort")).fields
    seven_up = TableForm(services.tables.get_game("seven_up")).fields["beginner_partners"]
    assert seven_up.widget.attrs["data-needs"] == "partnerships"  # shown once partnerships are ticked


def test_the_lobby_opens_a_table_whose_computer_partners_play_for_a_beginner(players):
    host = Client()
    host.force_login(players[0])
    response = host.post(reverse("table_create"), {"game": "euchre", "seats": 4, "beginner_partners": "on"})
    assert response.status_code == 302
    assert GameSession.objects.get().seats.get(position=0).beginner_partner is True  # the host's own choice


def test_a_person_partnered_by_a_computer_switches_it_at_the_table_for_themselves_only(players):
    anna, bjorn, cleo = players[:3]
    session = table_with(anna, "euchre", {}, 4, people=[(bjorn, 1)], computers=(2, 3), level="strong")
    services.session_start(session_id=session.pk, user=anna)
    html, table = table_page(session, anna)
    assert table.beginner_partners is False
    assert "Play as partner to a beginner" in html
    assert "never goes alone" in html  # Euchre has going alone
    client = Client()
    client.force_login(anna)
    url = reverse("beginner_partners", args=[session.pk])
    seq = GameSession.objects.get().seq
    assert client.post(url, {"on": "1"}).status_code == 302
    session.refresh_from_db()
    assert session.seq == seq + 1  # every view refreshes
    seats = list(session.seats.order_by("position"))
    assert seats[0].beginner_partner is True
    assert rights.partners_a_beginner(session, seats, seats[2])  # anna's partner
    assert not rights.partners_a_beginner(session, seats, seats[3])  # bjorn's partner plays as usual
    html, _ = table_page(session, anna)
    assert "Play as usual" in html
    _, bjorns = table_page(session, bjorn)
    assert bjorns.beginner_partners is False
    assert client.post(url, {"on": "yes"}, headers={"HX-Request": "true"}).status_code == 400  # not understood
    assert session.seats.get(position=0).beginner_partner is True

    outsider = Client()
    outsider.force_login(cleo)  # not seated: refused, and the table stays as it was
    outsider.post(url, {"on": "0"})
    assert session.seats.get(position=0).beginner_partner is True
    with pytest.raises(services.TableError):
        services.beginner_partners_set(session_id=session.pk, user=cleo, on=False)


def test_partners_who_are_both_people_have_nothing_to_switch(players):
    session = table_with(players[0], "euchre", {}, 4, people=[(players[1], 1), (players[2], 2)], computers=(3,))
    _, table = table_page(session, players[0])  # seat 0's partner is seat 2, a person
    assert table.beginner_partners is None
    with pytest.raises(services.TableError):
        services.beginner_partners_set(session_id=session.pk, user=players[0], on=True)
    _, table = table_page(session, players[1])  # seat 1's partner is the computer at 3
    assert table.beginner_partners is False


def test_a_game_without_going_alone_says_what_its_partner_avoids(players):
    session = table_with(players[0], "forty_five", {}, 4, people=[(players[1], 1)], computers=(2, 3))
    html, table = table_page(session, players[0])
    assert table.beginner_partners is False
    assert "never takes your trick" in html
    assert "never goes alone" not in html


def test_as_partner_to_a_beginner_a_computer_never_goes_alone_nor_overtakes():
    state = start(STRONG, "order", "discard:7D")
    view = state.view(0)
    assert decide("strong", view, random.Random(1)) == "alone"  # both bowers and three top hearts
    assert decide("strong", view, random.Random(1), True) == "pass"
    assert for_beginner(view, "alone", random.Random(1)) == "pass"
    overtaking = start(OVERTAKE, "order", "discard:7D", "pass", "9S", "7S")
    assert for_beginner(overtaking.view(2), "AS", random.Random(1), "strong") == "8S"
    assert for_beginner(overtaking.view(2), "8S", random.Random(1), "strong") == "8S"


def test_the_site_asks_only_the_computer_partnering_the_person_who_chose_it(players, monkeypatch):
    anna, bjorn = players[:2]
    session = table_with(anna, "euchre", {}, 4, people=[(bjorn, 1)], computers=(2, 3), level="strong")
    session = services.session_start(session_id=session.pk, user=anna)
    services.beginner_partners_set(session_id=session.pk, user=anna, on=True)
    session.refresh_from_db()
    asked = []
    monkeypatch.setattr("games.services.play.decide", lambda level, view, rng, gentle: asked.append(gentle) or "")
    seats = list(session.seats.order_by("position"))
    state = deal_state(session.deals.get())
    _decided(session, seats, state, 2, "strong")
    _decided(session, seats, state, 3, "strong")
    assert asked == [True, False]  # seat 2 partners anna, who asked; seat 3 partners bjorn, who did not
    seats[0].left = True  # a person who left is played by a computer: nobody to be gentle with
    assert not rights.partners_a_beginner(session, seats, seats[2])
    seats[0].left = False
    session.tournament_id = 1  # a tournament's computers play alike at every table: never
    assert not rights.partners_a_beginner(session, seats, seats[2])
    assert not rights.may_set_beginner_partners(session, seats, seats[0])
