"""Play again: the host opens the next table with the same game, options and seats; the others
are invited on their finished table, take their seat with one click, or decline."""

from __future__ import annotations

from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.utils import timezone

from games import services
from games.models import GameSession, Seat
from games.selectors import table_snapshot, table_view
from games.table_html import table_html
from tests.live_helpers import connect, frame_seq, frames_until
from tests.site_helpers import play_session

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished(players, make_user):
    session = play_session(players, computers=1, seed=3)
    session.refresh_from_db()
    assert session.status == GameSession.Status.FINISHED
    return session


def test_play_again_opens_a_table_with_the_same_game_options_and_seats(finished, players, client):
    client.force_login(players[0])
    page = client.get(f"/tables/{finished.pk}/").content.decode()
    assert "Play again" in page
    response = client.post(f"/tables/{finished.pk}/again/")
    finished.refresh_from_db()
    again = finished.rematch
    assert response.status_code == 302
    assert response["Location"] == f"/tables/{again.pk}/"
    assert again.status == GameSession.Status.WAITING
    assert (again.game, again.options, again.seat_count, again.turn_seconds) == (
        finished.game,
        finished.options,
        finished.seat_count,
        finished.turn_seconds,
    )
    old = {seat.position: seat for seat in finished.seats.all()}
    for seat in again.seats.all():
        before = old[seat.position]
        assert seat.computer == before.computer
        if before.user == players[0]:
            assert seat.user == players[0]
        elif before.user_id:
            assert seat.user is None
            assert seat.invited_id == before.user_id
    assert services.session_rematch(session_id=finished.pk, user=players[0]) == again  # asked twice: one table
    with pytest.raises(services.TableError):
        services.session_rematch(session_id=finished.pk, user=players[1])  # only the host


def test_the_others_see_the_invitation_and_take_their_seat_with_one_click(finished, players, client):
    again = services.session_rematch(session_id=finished.pk, user=players[0])
    client.force_login(players[1])
    page = client.get(f"/tables/{finished.pk}/").content.decode()
    assert "asks you to play again" in page
    response = client.post(f"/tables/{again.pk}/join/", {"then": "open"}, HTTP_HX_REQUEST="true")
    assert response["HX-Redirect"] == f"/tables/{again.pk}/"
    kept = Seat.objects.get(session=again, position=Seat.objects.get(session=finished, user=players[1]).position)
    assert kept.user == players[1]
    assert kept.invited is None
    view = table_view(table_snapshot(finished.pk), players[1])
    assert not view.invited
    assert view.rematch_id == again.pk


def test_declined_and_absent_seats_open(finished, players, make_user, monkeypatch, settings):
    again = services.session_rematch(session_id=finished.pk, user=players[0])
    stranger = make_user("dag")
    with pytest.raises(services.TableError):
        services.seat_take(session_id=again.pk, user=stranger)  # every free seat is kept for someone
    services.rematch_decline(session_id=finished.pk, user=players[2])
    assert not table_view(table_snapshot(finished.pk), players[2]).invited
    position = Seat.objects.get(session=finished, user=players[2]).position
    services.seat_take(session_id=again.pk, user=stranger)
    assert Seat.objects.get(session=again, user=stranger).position == position
    late = timezone.now() + timedelta(seconds=settings.FEMKORT_REMATCH_HOLD_SECONDS)
    monkeypatch.setattr(timezone, "now", lambda: late)
    other = make_user("elsa")
    services.seat_take(session_id=again.pk, user=other)  # bjorn never answered: his seat opened
    assert (
        Seat.objects.get(session=again, user=other).position
        == Seat.objects.get(session=finished, user=players[1]).position
    )
    with pytest.raises(services.TableError):
        services.rematch_decline(session_id=finished.pk, user=players[1])


def test_the_new_table_starts_with_whoever_came(finished, players):
    again = services.session_rematch(session_id=finished.pk, user=players[0])
    services.seat_take(session_id=again.pk, user=players[1])
    services.rematch_decline(session_id=finished.pk, user=players[2])
    started = services.session_start(session_id=again.pk, user=players[0])
    assert started.status == GameSession.Status.PLAYING
    assert started.seat_count == 3


@pytest.mark.django_db(transaction=True)
async def test_the_invitation_reaches_an_open_finished_table_live(players):
    session = await database_sync_to_async(play_session)(players, computers=1, seed=3)
    socket = await connect(session.pk, players[1])
    await frames_until(socket, session.seq)
    again = await database_sync_to_async(services.session_rematch)(session_id=session.pk, user=players[0])
    frames = await frames_until(socket, session.seq + 1)
    assert "asks you to play again" in frames[-1]
    assert f"/tables/{again.pk}/join/" in frames[-1]
    await socket.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_a_socket_opened_later_never_shows_an_older_view_than_the_page(players, make_user):
    """A process's snapshot of a table nobody here watched may be old: a new socket shows the table as it is."""
    session = await database_sync_to_async(services.table_create)(host=players[0], seats=3)
    first = await connect(session.pk, players[0])
    await frames_until(first, 0)
    await first.disconnect()
    await database_sync_to_async(services.seat_take)(session_id=session.pk, user=players[1])  # nobody watching
    again = await connect(session.pk, players[0])
    frames = await frames_until(again, 1)
    assert frame_seq(frames[0]) == 1
    await again.disconnect()


def test_a_kept_seat_says_for_whom(finished, players, make_user):
    again = services.session_rematch(session_id=finished.pk, user=players[0])
    stranger = make_user("dag")
    seen_by_stranger = table_view(table_snapshot(again.pk), stranger).seats
    assert sorted(seat.kept_for for seat in seen_by_stranger if seat.kept_for) == sorted(
        user.name for user in players[1:]
    )
    html = table_html(table_view(table_snapshot(again.pk), stranger))
    assert "kept for bjorn" in html
    assert html.count("Sit here") == 0
    mine = table_html(table_view(table_snapshot(again.pk), players[1]))
    assert mine.count("Sit here") == 1


def test_a_computer_in_a_kept_seat_ends_that_invitation(finished, players, monkeypatch, settings):
    again = services.session_rematch(session_id=finished.pk, user=players[0])
    late = timezone.now() + timedelta(seconds=settings.FEMKORT_REMATCH_HOLD_SECONDS)
    monkeypatch.setattr(timezone, "now", lambda: late)
    position = Seat.objects.get(session=finished, user=players[1]).position
    services.computer_add(session_id=again.pk, user=players[0], position=position)
    assert Seat.objects.get(session=again, position=position).invited is None
    assert not table_view(table_snapshot(finished.pk), players[1]).invited


def test_once_the_new_table_starts_the_old_one_stops_inviting(finished, players):
    again = services.session_rematch(session_id=finished.pk, user=players[0])
    services.seat_take(session_id=again.pk, user=players[1])
    before = GameSession.objects.get(pk=finished.pk).seq
    services.session_start(session_id=again.pk, user=players[0])
    assert GameSession.objects.get(pk=finished.pk).seq == before + 1  # pages and snapshots refresh
    assert not table_view(table_snapshot(finished.pk), players[2]).invited
