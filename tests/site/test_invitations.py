"""Invitations by name and blocks: the host asks a player by name, the player sees it on every
page and joins or declines; a block stops invitations, hides chat and keeps Play now apart."""

from __future__ import annotations

import functools
import threading

import pytest
from django.db import connection, connections
from django.test import Client
from django.urls import reverse

from games import services
from games.models import Block, ChatMute, Connection, Follow, GameSession, Invitation, Seat
from tests.site_helpers import logged_in, table_with

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_english")]


def test_an_invitation_by_name_shows_on_every_page_and_joins_in_one_click(players):
    host, bjorn, _ = players
    session = table_with(host, "euchre", {}, 4, computers=[2])
    page = logged_in(host).post(reverse("invite", args=[session.pk]), {"username": bjorn.username.upper()}, follow=True)
    assert "is invited" in page.content.decode()
    guest = logged_in(bjorn)
    lobby = guest.get(reverse("lobby")).content.decode()
    assert f'href="{reverse("invitations")}"' in lobby
    assert "1 waiting for your answer" in lobby
    listing = guest.get(reverse("invitations")).content.decode()
    invitation = Invitation.objects.get()
    assert reverse("invitation_answer", args=[invitation.pk]) in listing
    response = guest.post(reverse("invitation_answer", args=[invitation.pk]), {"join": "1"})
    assert response["Location"] == reverse("table", args=[session.pk])
    assert Seat.objects.filter(session=session, user=bjorn).exists()
    assert "waiting for your answer" not in guest.get(reverse("lobby")).content.decode()
    again = guest.post(reverse("invitation_answer", args=[invitation.pk]), {"join": "1"}, follow=True)
    assert "no longer open" in again.content.decode()


def test_no_thanks_and_an_invitation_ends_with_its_table(players):
    host, bjorn, cecilia = players
    session = table_with(host, "femkort", {}, 4)
    first = services.invite(session_id=session.pk, user=host, username=bjorn.username)
    services.invite(session_id=session.pk, user=host, username=cecilia.username)
    logged_in(bjorn).post(reverse("invitation_answer", args=[first.pk]), {"join": "0"})
    first.refresh_from_db()
    assert first.answer == Invitation.Answer.DECLINED
    assert not Seat.objects.filter(session=session, user=bjorn).exists()
    services.session_abandon(session_id=session.pk, user=host)
    assert not services.invitations_open(cecilia).exists()  # the table closed: the invitation with it
    assert "No invitation is waiting" in logged_in(cecilia).get(reverse("invitations")).content.decode()


def test_who_may_invite_whom(players, make_user, settings):
    host, bjorn, cecilia = players
    session = table_with(host, "femkort", {}, 4, people=[(cecilia, 1)])
    with pytest.raises(services.TableError, match="Only the host"):
        services.invite(session_id=session.pk, user=cecilia, username=bjorn.username)
    for name in ("nobody-here", host.username):
        with pytest.raises(services.TableError, match="cannot be invited"):
            services.invite(session_id=session.pk, user=host, username=name)
    with pytest.raises(services.TableError, match="already sits"):
        services.invite(session_id=session.pk, user=host, username=cecilia.username)
    services.invite(session_id=session.pk, user=host, username=bjorn.username)
    with pytest.raises(services.TableError, match="invited already"):
        services.invite(session_id=session.pk, user=host, username=bjorn.username)
    settings.FEMKORT_INVITE_RATE = (2, 600)
    services.invite(session_id=session.pk, user=host, username=make_user("dora").username)
    with pytest.raises(services.TableError, match="Too many invitations"):
        services.invite(session_id=session.pk, user=host, username=make_user("erik").username)
    assert Invitation.objects.count() == 2
    assert Client().get(reverse("invitations"))["Location"].startswith(reverse("login"))


def test_a_block_stops_invitations_hides_chat_and_keeps_play_now_apart(players):
    host, bjorn, cecilia = players
    guest = logged_in(bjorn)
    guest.post(reverse("block", args=[cecilia.username]), {"blocked": "1"})
    assert ChatMute.objects.filter(user=bjorn, muted=cecilia).exists()
    profile = guest.get(reverse("player", args=[cecilia.username])).content.decode()
    assert "Unblock" in profile
    settings_page = guest.get(reverse("profile")).content.decode()  # listed in settings, with what a block does
    assert cecilia.name in settings_page
    assert "includes a chat mute" in settings_page
    assert cecilia.name not in guest.get(reverse("invitations")).content.decode()
    carols = table_with(cecilia, "femkort", {}, 4)
    with pytest.raises(services.TableError, match="cannot be invited"):  # said as for any name
        services.invite(session_id=carols.pk, user=cecilia, username=bjorn.username)
    response = guest.post(reverse("play_now"), {"game": "femkort"})
    assert response["Location"] != reverse("table", args=[carols.pk])  # never seated with a blocked player
    assert not Seat.objects.filter(session=carols, user=bjorn).exists()
    hosts = table_with(host, "femkort", {}, 4, people=[(bjorn, 1)])
    services.block(user=cecilia, username=host.username)
    with pytest.raises(services.TableError, match="cannot be invited"):  # blocked either way round
        services.invite(session_id=hosts.pk, user=host, username=cecilia.username)
    unblocked = guest.post(reverse("block", args=[cecilia.username]), {"blocked": "0", "next": "settings"})
    assert unblocked["Location"] == reverse("profile") + "#blocked"
    assert not ChatMute.objects.filter(user=bjorn, muted=cecilia).exists()
    assert GameSession.objects.filter(pk=carols.pk, status=GameSession.Status.WAITING).exists()


def test_friends_are_offered_first_when_inviting_and_shown_in_common(players, make_user):
    host, bjorn, cecilia = players
    dora = make_user("dora")
    logged_in(host).post(reverse("follow", args=[dora.username]), {"following": "1"})
    services.follow(user=bjorn, username=dora.username)
    played = table_with(host, "femkort", {}, 4, people=[(cecilia, 1)])
    services.computer_add(session_id=played.pk, user=host, position=2)
    services.session_start(session_id=played.pk, user=host)
    services.block(user=host, username=bjorn.username)
    waiting = table_with(host, "femkort", {}, 4)
    from tests.site_helpers import table_page

    html, view = table_page(waiting, host)
    assert view.invite_names[:2] == (dora.username, cecilia.username)  # the friend, then whom the host met
    assert bjorn.username not in view.invite_names  # nobody blocked
    assert f'<option value="{dora.username}">' in html
    assert table_page(waiting, cecilia)[1].invite_names == ()  # offered to the host only
    services.block(user=host, username=bjorn.username, blocked=False)
    profile = logged_in(host).get(reverse("player", args=[bjorn.username])).content.decode()
    assert "Friends in common" in profile
    assert f'href="/players/{dora.username}/"' in profile
    logged_in(host).post(reverse("follow", args=[dora.username]), {"following": "0"})
    assert "Friends in common" not in logged_in(host).get(reverse("player", args=[bjorn.username])).content.decode()


def test_follows_and_blocks_are_rate_limited_together_and_undoing_is_not(players, make_user, settings):
    host, bjorn, cecilia = players
    settings.FEMKORT_FOLLOW_RATE = (2, 600)
    services.follow(user=host, username=bjorn.username)
    services.follow(user=host, username=bjorn.username)  # already followed: nothing new, not counted
    services.block(user=host, username=cecilia.username)
    dora = make_user("dora")
    for refused in (
        lambda: services.follow(user=host, username=dora.username),
        lambda: services.block(user=host, username=dora.username),
    ):
        with pytest.raises(services.TableError, match="Too many follows"):
            refused()
    services.follow(user=host, username=bjorn.username, following=False)  # undoing is never limited
    services.block(user=host, username=cecilia.username, blocked=False)
    page = logged_in(bjorn).post(reverse("follow", args=[host.username]), {"following": "1"}, follow=True)
    assert page.redirect_chain[-1][0] == reverse("player", args=[host.username])
    settings.FEMKORT_FOLLOW_RATE = (0, 600)
    page = logged_in(bjorn).post(reverse("block", args=[dora.username]), {"blocked": "1"}, follow=True)
    assert "Too many follows" in page.content.decode()
    assert page.redirect_chain[-1][0] == reverse("player", args=[dora.username])
    assert not Block.objects.filter(user=bjorn).exists()
    assert Follow.objects.filter(user=bjorn, followed=host).exists()
    assert not Follow.objects.filter(user=host).exists()


def test_the_header_lists_friends_online_and_names_only_tables_the_viewer_may_know(players, make_user):
    host, bjorn, cecilia = players
    dora = make_user("dora")
    for friend in (bjorn, cecilia, dora):
        services.follow(user=host, username=friend.username)
    public = table_with(bjorn, "femkort", {}, 4)
    private = services.table_create(host=cecilia, seats=4, game="femkort", options={}, unlisted=True)
    Connection.objects.create(session=public, user=bjorn, channel_name="bjorn-at-table")
    Connection.objects.create(session=private, user=cecilia, channel_name="cecilia-at-table")
    Connection.objects.create(session=None, user=dora, channel_name="dora-in-lobby")
    header = logged_in(host).get(reverse("leaderboard")).content.decode()
    assert "3 friends online" in header
    assert f'href="{reverse("table", args=[public.pk])}"' in header  # a public table is named
    assert f'href="{reverse("table", args=[private.pk])}"' not in header  # a private one only to its players
    assert f'href="/players/{cecilia.username}/"' in header
    services.seat_take(session_id=private.pk, user=host, position=2)
    header = logged_in(host).get(reverse("leaderboard")).content.decode()
    assert f'href="{reverse("table", args=[private.pk])}"' in header
    services.block(user=dora, username=host.username)  # who blocked you is not shown online to you
    header = logged_in(host).get(reverse("leaderboard")).content.decode()
    assert "2 friends online" in header
    assert f'href="/players/{dora.username}/"' not in header
    Connection.objects.all().delete()
    assert "None of the players you follow is online" in logged_in(host).get(reverse("leaderboard")).content.decode()


def test_a_toast_answers_in_place_joining_goes_to_the_table_and_a_stale_one_says_why(players):
    host, bjorn, cecilia = players
    session = table_with(host, "femkort", {}, 4)
    to_bjorn = services.invite(session_id=session.pk, user=host, username=bjorn.username)
    to_cecilia = services.invite(session_id=session.pk, user=host, username=cecilia.username)
    answer = reverse("invitation_answer", args=[to_bjorn.pk])
    joined = logged_in(bjorn).post(answer, {"join": "1"}, headers={"HX-Request": "true"})
    assert joined.status_code == 200
    assert joined["HX-Redirect"] == reverse("table", args=[session.pk])
    assert Seat.objects.filter(session=session, user=bjorn).exists()
    declined = logged_in(cecilia).post(
        reverse("invitation_answer", args=[to_cecilia.pk]), {"join": "0"}, headers={"HX-Request": "true"}
    )
    assert declined.status_code == 200
    said = declined.content.decode()  # the toast goes (nothing in its place) and the header's count is swapped in
    assert said.startswith('<a id="invitations-link"')
    assert 'hx-swap-oob="true"' in said
    assert "badge" not in said
    assert Invitation.objects.get(pk=to_cecilia.pk).answer == Invitation.Answer.DECLINED
    stale = logged_in(bjorn).post(answer, {"join": "1"}, headers={"HX-Request": "true"}).content.decode()
    assert 'class="toast"' in stale
    assert "no longer open" in stale
    assert Seat.objects.filter(session=session, user=bjorn).count() == 1


def at_once(calls) -> list[str]:
    """Run ``calls`` at the same moment in threads of their own (as from several server processes):
    "ok" or the refusal's code for each."""
    start = threading.Barrier(len(calls))
    outcomes: list[str] = []

    def run(call) -> None:
        start.wait()
        try:
            call()
            outcomes.append("ok")
        except services.TableError as refused:
            outcomes.append(refused.code)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(call,)) for call in calls]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return sorted(outcomes)


@pytest.mark.skipif(connection.vendor != "postgresql", reason="concurrent writers: PostgreSQL's row locks")
@pytest.mark.django_db(transaction=True)
def test_invitations_sent_at_once_to_several_tables_keep_the_limit(players, make_user, settings):
    settings.FEMKORT_INVITE_RATE = (4, 600)
    host = players[0]
    tables = [table_with(host, "femkort", {}, 4) for _ in range(3)]
    invitees = [make_user(f"guest{number}") for number in range(9)]
    calls = [
        functools.partial(services.invite, session_id=tables[number % 3].pk, user=host, username=guest.username)
        for number, guest in enumerate(invitees)
    ]
    assert at_once(calls) == ["invite_rate"] * 5 + ["ok"] * 4
    assert Invitation.objects.filter(inviter=host).count() == 4


@pytest.mark.skipif(connection.vendor != "postgresql", reason="concurrent writers: PostgreSQL's row locks")
@pytest.mark.django_db(transaction=True)
def test_follows_and_blocks_made_at_once_keep_the_limit(players, make_user, settings):
    settings.FEMKORT_FOLLOW_RATE = (3, 600)
    anna = players[0]
    others = [make_user(f"friend{number}") for number in range(8)]
    calls = [
        functools.partial(services.follow if number % 2 else services.block, user=anna, username=other.username)
        for number, other in enumerate(others)
    ]
    assert at_once(calls) == ["follow_rate"] * 5 + ["ok"] * 3
    assert Follow.objects.filter(user=anna).count() + Block.objects.filter(user=anna).count() == 3
