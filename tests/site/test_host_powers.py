"""What the host of a waiting table may do besides starting it: take a seat back from a person
(who is told), lock the table, hand the host's role over; and what nobody else may do."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games import services
from games.models import GameSession, Seat
from tests.site_helpers import logged_in, table_page, table_with

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_english")]


def test_the_host_removes_a_person_who_is_told_and_may_sit_again(players):
    host, bjorn, cecilia = players
    session = table_with(host, "femkort", {}, 4, people=[(bjorn, 1), (cecilia, 2)])
    with pytest.raises(services.TableError, match="Only the host"):
        services.seat_remove(session_id=session.pk, user=cecilia, position=1)
    with pytest.raises(services.TableError, match="cannot remove themselves"):
        services.seat_remove(session_id=session.pk, user=host, position=0)
    with pytest.raises(services.TableError, match="Nobody sits there"):
        services.seat_remove(session_id=session.pk, user=host, position=3)
    logged_in(host).post(reverse("seat_remove", args=[session.pk, 1]))
    assert not Seat.objects.filter(session=session, user=bjorn).exists()
    html, view = table_page(session, bjorn)
    assert view.removed
    assert "The host removed you from your seat." in html
    assert not table_page(session, cecilia)[1].removed  # told to the one removed only
    services.seat_take(session_id=session.pk, user=bjorn)
    session.refresh_from_db()
    assert session.removed == []


def test_a_locked_table_takes_nobody_new_until_it_is_unlocked(players, make_user):
    host, bjorn, _ = players
    dora = make_user("dora")
    session = table_with(host, "femkort", {}, 4, people=[(bjorn, 1)])
    with pytest.raises(services.TableError, match="Only the host"):
        services.table_lock(session_id=session.pk, user=bjorn, locked=True)
    logged_in(host).post(reverse("table_lock", args=[session.pk]), {"locked": "1"})
    session.refresh_from_db()
    assert session.locked
    with pytest.raises(services.TableError, match="locked"):
        services.seat_take(session_id=session.pk, user=dora)
    html, view = table_page(session, dora)
    assert not view.can_join
    assert "Sit here" not in html
    assert logged_in(dora).post(reverse("play_now"), {"game": "femkort"})["Location"] != reverse(
        "table", args=[session.pk]
    )
    services.table_lock(session_id=session.pk, user=host, locked=False)
    services.seat_take(session_id=session.pk, user=make_user("erik"))


def test_the_host_hands_the_role_over_to_a_seated_person(players, make_user):
    host, bjorn, cecilia = players
    session = table_with(host, "femkort", {}, 4, people=[(bjorn, 1)])
    with pytest.raises(services.TableError, match="Only a person seated"):
        services.host_hand_over(session_id=session.pk, user=host, position=2)
    with pytest.raises(services.TableError, match="Only the host"):
        services.host_hand_over(session_id=session.pk, user=bjorn, position=1)
    logged_in(host).post(reverse("host_hand_over", args=[session.pk, 1]))
    session.refresh_from_db()
    assert session.host_id == bjorn.pk
    services.seat_leave(session_id=session.pk, user=host)  # the old host may now leave like anyone
    services.seat_take(session_id=session.pk, user=cecilia)
    services.computer_add(session_id=session.pk, user=bjorn, position=3)  # the new host's powers
    started = services.session_start(session_id=session.pk, user=bjorn)
    assert started.status == GameSession.Status.PLAYING


def test_seat_names_link_to_profiles_and_a_new_rating_is_provisional(players):
    from games.models import Standing
    from tests.site_helpers import play_session, started_table

    session = table_with(players[0], "femkort", {}, 4, people=[(players[1], 1)], computers=[2])
    html, _ = table_page(session, players[0])
    assert f'href="/players/{players[1].username}/"' in html
    assert "/players/" not in html.split('data-seat="2"')[1].split("</li>")[0]  # a computer has no profile
    playing = started_table(players)
    assert f'href="/players/{players[2].username}/"' in table_page(playing, players[0])[0]

    finished = play_session(players, options={"target": 1})
    assert finished.status == GameSession.Status.FINISHED
    standing = Standing.objects.get(user=players[0], game="femkort")
    assert standing.provisional
    profile = Client().get(reverse("player", args=[players[0].username])).content.decode()
    assert "provisional" in profile
    Standing.objects.filter(pk=standing.pk).update(sigma=2.0, mu=30.0, rating=24.0)
    profile = Client().get(reverse("player", args=[players[0].username])).content.decode()
    assert "24.0" in profile
    assert "±6.0" in profile


def test_the_removal_notice_reaches_only_the_one_removed_not_bystanders_sockets(players, make_user):
    """Sockets share the table's rendered body: the notice must be part of what tells one body from another."""
    host, bjorn, _ = players
    dora = make_user("dora")  # a bystander, signed in, with no seat
    session = table_with(host, "femkort", {}, 4, people=[(bjorn, 1)])
    services.seat_remove(session_id=session.pk, user=host, position=1)
    assert "The host removed you from your seat." in table_page(session, bjorn)[0]
    assert "The host removed you from your seat." not in table_page(session, dora)[0]
