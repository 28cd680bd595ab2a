"""Partners on the right side: the waiting page says the sides, a seated player moves to a free seat
in one click, and an invitee sits down as the inviter's partner when that seat is free."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games import services
from games.models import Invitation, Seat
from tests.site_helpers import logged_in, table_page, table_with

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_english")]


def sides_shown(html: str) -> dict[int, str]:
    """Each seat of the waiting page's list and the side it says."""
    return {
        int(position): side
        for position, side in re.findall(
            r'data-seat="(\d+)" data-team="\d+">.*?<span class="badge side">(side \d)', html, re.S
        )
    }


def test_the_waiting_page_shows_the_sides_of_a_game_of_partnerships(players):
    euchre = table_with(players[0], "euchre", {}, 4)
    assert sides_shown(table_page(euchre, players[1])[0]) == {0: "side 1", 1: "side 2", 2: "side 1", 3: "side 2"}
    auction = table_with(players[1], "auction_forty_five", {}, 6)
    shown = sides_shown(table_page(auction, players[0])[0])
    assert shown == {position: f"side {position % 2 + 1}" for position in range(6)}
    femkort = table_with(players[2], "femkort", {}, 4)
    assert 'class="badge side"' not in table_page(femkort, players[0])[0]  # each for themselves


def test_a_seated_player_moves_to_a_free_seat_in_one_click(players):
    host, bjorn, cecilia = players
    session = table_with(host, "euchre", {}, 4, people=[(bjorn, 1), (cecilia, 3)])
    page = table_page(session, bjorn)[0]
    assert page.count("Move here") == 1  # the one free seat
    response = logged_in(bjorn).post(reverse("seat_take", args=[session.pk]), {"position": 2})
    assert response.status_code == 302
    assert Seat.objects.get(session=session, position=2).user == bjorn
    assert Seat.objects.get(session=session, position=1).user is None
    with pytest.raises(services.TableError, match="That seat is taken"):
        services.seat_take(session_id=session.pk, user=bjorn, position=3)
    assert Seat.objects.get(session=session, position=2).user == bjorn  # a refused move changes nothing


def test_an_invitee_sits_as_the_inviters_partner_when_that_seat_is_free(players, make_user):
    host, bjorn, cecilia = players
    session = table_with(host, "euchre", {}, 4)
    invitation = services.invite(session_id=session.pk, user=host, username=bjorn.username)
    services.invitation_answer(invitation_id=invitation.pk, user=bjorn, join=True)
    assert Seat.objects.get(session=session, user=bjorn).position == 2  # facing the host: partners
    taken = table_with(cecilia, "euchre", {}, 4, people=[(make_user("dora"), 2)])
    invitation = services.invite(session_id=taken.pk, user=cecilia, username=host.username)
    services.invitation_answer(invitation_id=invitation.pk, user=host, join=True)
    assert Seat.objects.get(session=taken, user=host).position == 1  # the partner's seat taken: the first free
    assert Invitation.objects.get(pk=invitation.pk).answer == Invitation.Answer.JOINED
