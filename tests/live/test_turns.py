"""Tables that never stall: turn clocks, absent players, a computer taking the seat, coming
back, leaving, abandonment, clocks across a restart. Time is a controlled clock, never slept."""

from __future__ import annotations

import io
import threading
from datetime import timedelta

import pytest
from django import db
from django.core.management import call_command

from games import services
from games.models import Connection, GameSession, Play, Seat, ServerBeat, Standing
from games.selectors import computer_view, lobby_tables, overdue_tables, table_snapshot, table_view
from games.stored import deal_state
from tests.servers import shared_services_or_skip

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def limits(settings):
    settings.FEMKORT_AWAY_SECONDS = 60
    settings.FEMKORT_ABANDON_SECONDS = 60
    settings.FEMKORT_REMATCH_HOLD_SECONDS = 120


def table(users, *, turn_seconds: int = 0, computers: int = 0, target: int = 3) -> GameSession:
    session = services.table_create(
        host=users[0], seats=len(users) + computers, turn_seconds=turn_seconds, options={"target": target}
    )
    for user in users[1:]:
        services.seat_take(session_id=session.pk, user=user)
    for position in range(len(users), len(users) + computers):
        services.computer_add(session_id=session.pk, user=users[0], position=position)
    return services.session_start(session_id=session.pk, user=users[0])


def to_act(session: GameSession) -> Seat:
    session.refresh_from_db()
    return session.seats.select_related("user").get(position=session.to_act)


def check(session: GameSession) -> GameSession | None:
    session.refresh_from_db()
    return services.turn_check(session_id=session.pk, seen_seq=session.seq)


def play_for_person(session: GameSession) -> None:
    """The person to act plays their first legal card."""
    session.refresh_from_db()
    state = deal_state(session.deals.order_by("-number").first())
    user = session.seats.get(position=state.to_act).user
    services.action_take(session_id=session.pk, user=user, action=state.legal_cards()[0], seen_seq=session.seq)


def connect(session: GameSession, user) -> Connection:
    return Connection.objects.create(session=session, user=user, channel_name=f"test.{user.pk}.{session.pk}")


def test_a_turn_records_who_acts_since_when_and_the_clock(players, clock):
    session = table(players, turn_seconds=30)
    state = deal_state(session.deals.get())
    assert session.to_act == state.to_act
    assert session.turn_since == clock.now
    assert session.deadline == clock.now + timedelta(seconds=30)
    assert session.due == session.deadline  # the clock runs out before the absence check
    clock.advance(7)
    play_for_person(session)
    session.refresh_from_db()
    assert session.to_act == deal_state(session.deals.get()).to_act
    assert (session.turn_since, session.deadline) == (clock.now, clock.now + timedelta(seconds=30))


def test_when_the_clock_runs_out_a_computer_takes_the_seat_and_plays_for_it(players, clock):
    session = table(players, turn_seconds=15)
    slow = to_act(session)
    for user in players:
        connect(session, user)  # everyone is there: only the clock matters
    clock.advance(14.9)
    assert check(session) is not None  # not due yet: nothing changes
    assert Seat.objects.get(pk=slow.pk).stand_in == ""
    clock.advance(0.1)
    before = session.seq
    assert check(session) is not None
    slow.refresh_from_db()
    session.refresh_from_db()
    assert slow.stand_in == "strong"
    assert not slow.left
    assert session.seq == before + 1
    assert session.deadline is None
    snapshot = table_snapshot(session.pk)
    assert computer_view(snapshot)[0] == "strong"
    panel = table_view(snapshot, players[1]).seats[slow.position]
    assert panel.stand_in
    services.computer_turn(session_id=session.pk)
    assert Play.objects.get(deal__session=session, seq=1).seat == slow.position


def test_a_connected_player_without_a_clock_is_never_replaced(players, clock):
    session = table(players)
    row = connect(session, to_act(session).user)
    assert to_act(session).played_by == ""
    for _ in range(5):
        clock.advance(60)
        Connection.objects.filter(pk=row.pk).update(seen=clock.now)  # the socket's presence beat
        assert check(session) is not None
        assert to_act(session).stand_in == ""
    assert Play.objects.filter(deal__session=session).count() == 0


def test_a_player_gone_for_60_seconds_on_their_turn_is_replaced_also_without_a_clock(players, clock):
    session = table(players)
    thinker = to_act(session)
    row = connect(session, thinker.user)
    clock.advance(40)
    row.delete()  # the browser closed: the consumer notes the moment
    Seat.objects.filter(pk=thinker.pk).update(seen=clock.now)
    clock.advance(20)
    assert check(session) is not None
    assert to_act(session).stand_in == ""  # gone 20 s only
    session.refresh_from_db()
    assert session.due == clock.now + timedelta(seconds=40)
    clock.advance(40)
    assert check(session) is not None
    assert to_act(session).stand_in == "strong"


def test_polling_the_table_counts_as_being_there(players, clock, client):
    session = table(players)
    thinker = to_act(session)
    client.force_login(thinker.user)
    clock.advance(50)
    assert client.get(f"/tables/{session.pk}/").status_code == 200
    clock.advance(20)
    assert check(session) is not None
    assert to_act(session).stand_in == ""
    clock.advance(40)
    assert check(session) is not None
    assert to_act(session).stand_in == "strong"


def test_coming_back_takes_the_seat_back_with_one_click(players, clock, client):
    session = table(players, turn_seconds=15)
    seat = to_act(session)
    clock.advance(15)
    check(session)
    session.refresh_from_db()
    user = seat.user
    state = deal_state(session.deals.get())
    with pytest.raises(services.TableError) as refused:
        services.action_take(session_id=session.pk, user=user, action=state.legal_cards()[0], seen_seq=session.seq)
    assert refused.value.code == "stood_in"
    stood_in = table_view(table_snapshot(session.pk), user)
    assert not stood_in.my_turn  # his cards are not his to play while the computer plays them
    assert stood_in.can_reclaim
    client.force_login(user)
    page = client.get(f"/tables/{session.pk}/").content.decode()
    assert "Take my seat back" in page
    with pytest.raises(services.TableError) as mid_turn:  # from his next turn: the clock that ran out stays run out
        services.seat_reclaim(session_id=session.pk, user=user)
    assert mid_turn.value.code == "mid_turn"
    services.computer_turn(session_id=session.pk)  # the computer plays this card for him
    assert client.post(f"/tables/{session.pk}/take-back/").status_code == 302
    seat.refresh_from_db()
    assert seat.stand_in == ""
    while to_act(session).position != seat.position:
        play_for_person(session)
    session.refresh_from_db()
    assert session.deadline == session.turn_since + timedelta(seconds=15)
    state = deal_state(session.deals.get())
    services.action_take(session_id=session.pk, user=user, action=state.legal_cards()[0], seen_seq=session.seq)
    with pytest.raises(services.TableError):
        services.seat_reclaim(session_id=session.pk, user=user)


def test_the_last_person_back_takes_a_waiting_turn_at_once(players, clock):
    """With nobody playing their own seat the computers wait, so coming back on your turn is allowed."""
    session = table(players[:1], computers=2, turn_seconds=15)
    services.computers_play_all(session_id=session.pk)
    clock.advance(15)
    check(session)
    session.refresh_from_db()
    assert session.unattended_since is not None
    services.seat_reclaim(session_id=session.pk, user=players[0])
    session.refresh_from_db()
    assert session.unattended_since is None
    assert to_act(session).user == players[0]
    assert session.deadline == clock.now + timedelta(seconds=15)


def test_a_move_and_a_clock_check_at_once_do_not_both_count(players, clock):
    session = table(players, turn_seconds=15)
    seen = session.seq
    clock.advance(15)
    play_for_person(session)  # the card arrived just in time
    assert services.turn_check(session_id=session.pk, seen_seq=seen) is None
    assert not Seat.objects.filter(session=session).exclude(stand_in="").exists()


def test_leaving_a_running_session_hands_the_seat_to_a_computer_and_counts_as_lost(players, clock, client):
    session = table(players, target=1)
    leaver = players[1]
    client.force_login(leaver)
    assert "cannot come back" in client.get(f"/tables/{session.pk}/leave-session/").content.decode()
    assert client.post(f"/tables/{session.pk}/leave-session/").status_code == 302
    seat = Seat.objects.get(session=session, user=leaver)
    assert seat.left
    assert seat.stand_in == "strong"
    with pytest.raises(services.TableError):
        services.seat_reclaim(session_id=session.pk, user=leaver)
    with pytest.raises(services.TableError):
        services.session_leave(session_id=session.pk, user=leaver)
    finish(session)
    session.refresh_from_db()
    assert session.status == GameSession.Status.FINISHED
    assert not session.with_computers
    standing = Standing.objects.get(user=leaver)
    assert standing.against == Standing.Against.PEOPLE  # the board it started on
    assert (standing.sessions_played, standing.sessions_won) == (1, 0)
    seat.refresh_from_db()
    others = Seat.objects.filter(session=session).exclude(pk=seat.pk)
    assert all(seat.rating_after < other.rating_after for other in others)  # ranked below everyone


def test_a_replaced_player_counts_the_session_as_lost_even_if_the_seat_won(players, clock):
    session = table(players, target=1)
    for user in players:
        connect(session, user)
    Seat.objects.filter(session=session).update(stand_in="medium")  # every seat played by computers
    Seat.objects.filter(session=session, user=players[0]).update(stand_in="")
    Connection.objects.all().delete()
    finish(session)
    session.refresh_from_db()
    assert session.status == GameSession.Status.FINISHED
    for user in players[1:]:
        standing = Standing.objects.get(user=user)
        assert (standing.sessions_played, standing.sessions_won) == (1, 0)
    first = max(range(3), key=lambda seat: session.match["wins"][seat])
    if Seat.objects.get(session=session, position=first).user != players[0]:
        assert session.winner is None  # a computer's play wins nothing for a replaced player
        assert "nobody wins the session" in table_view(table_snapshot(session.pk), None).finished_summary


def test_when_every_person_has_gone_the_session_is_abandoned_after_the_grace_period(players, clock, settings):
    session = table(players[:2], computers=1)
    for user in players[:2]:
        services.session_leave(session_id=session.pk, user=user)
    session.refresh_from_db()
    assert session.unattended_since == clock.now
    assert session.due == clock.now + timedelta(seconds=settings.FEMKORT_ABANDON_SECONDS)
    assert services.computers_play_all(session_id=session.pk) == 0  # nobody is watching: computers wait
    assert computer_view(table_snapshot(session.pk)) is None
    clock.advance(settings.FEMKORT_ABANDON_SECONDS - 1)
    assert check(session) is not None
    session.refresh_from_db()
    assert session.status == GameSession.Status.PLAYING
    clock.advance(1)
    assert check(session) is not None
    session.refresh_from_db()
    assert session.status == GameSession.Status.ABANDONED
    assert not Play.objects.filter(deal__session=session).exists()
    assert not Standing.objects.exists()  # no ratings change
    assert session not in lobby_tables()["playing"].sessions


def test_taking_a_seat_back_keeps_the_session_going(players, clock, settings):
    session = table(players[:2], computers=1, turn_seconds=15)
    for _ in range(4):  # both people let their clocks run out (a computer may lead first)
        services.computers_play_all(session_id=session.pk)
        clock.advance(15)
        check(session)
    assert Seat.objects.filter(session=session, stand_in="medium").count() == 2
    session.refresh_from_db()
    assert session.unattended_since is not None
    services.seat_reclaim(session_id=session.pk, user=players[0])
    session.refresh_from_db()
    assert session.unattended_since is None
    clock.advance(settings.FEMKORT_ABANDON_SECONDS * 2)
    services.computers_play_all(session_id=session.pk)
    session.refresh_from_db()
    assert session.status == GameSession.Status.PLAYING


def test_after_a_restart_running_clocks_are_pushed_back_by_the_downtime(players, clock):
    waiting_on_person = table(players, turn_seconds=30)
    services.clocks_keep()
    clock.advance(5)
    assert services.clocks_keep() is None  # a beat: nothing stopped
    waiting_on_person.refresh_from_db()
    before = (waiting_on_person.deadline, waiting_on_person.due, waiting_on_person.seq)
    clock.advance(300)  # every server down for five minutes
    assert services.clocks_keep() == timedelta(seconds=300)
    waiting_on_person.refresh_from_db()
    assert waiting_on_person.deadline == before[0] + timedelta(seconds=300)
    assert waiting_on_person.due == before[1] + timedelta(seconds=300)
    assert waiting_on_person.seq == before[2] + 1  # pages show the new clock
    assert services.clocks_keep() is None  # given back once
    clock.advance(24)  # 5 s of the clock ran before the downtime: 25 s are left
    assert check(waiting_on_person) is not None
    assert to_act(waiting_on_person).stand_in == ""


def test_the_lobby_says_whom_a_table_waits_for_and_how_long(players, clock, client):
    session = table(players)
    name = to_act(session).name
    clock.advance(42)
    page = client.get("/").content.decode()
    assert f"waiting for {name} for 42 seconds" in page
    clock.advance(600)
    assert f"waiting for {name} for 10 minutes" in client.get("/").content.decode()


def test_the_host_chooses_the_turn_clock_in_the_lobby(players, client):
    client.force_login(players[0])
    response = client.post("/tables/new/", {"seats": 3, "target": 3, "profile": "modern", "turn_seconds": 15})
    assert response.status_code == 302
    assert GameSession.objects.get().turn_seconds == 15
    assert (
        client.post("/tables/new/", {"seats": 3, "target": 3, "profile": "modern", "turn_seconds": 7}).status_code
        == 400
    )
    with pytest.raises(services.TableError):
        services.table_create(host=players[0], seats=3, turn_seconds=7)


def finish(session: GameSession) -> None:
    """Play to the end: computers (and stand-ins) by the service, people their first legal card."""
    for _ in range(2000):
        services.computers_play_all(session_id=session.pk)
        session.refresh_from_db()
        if session.status != GameSession.Status.PLAYING:
            return
        play_for_person(session)
    raise AssertionError("the session did not end")


def test_beat_row_may_be_missing(players, clock):
    ServerBeat.objects.all().delete()
    assert services.clocks_keep() is None
    assert ServerBeat.objects.get().at == clock.now


@pytest.mark.django_db(transaction=True)
def test_processes_starting_together_give_the_downtime_back_once(players, clock):
    shared_services_or_skip()
    session = table(players, turn_seconds=30)
    services.clocks_keep()
    deadline = GameSession.objects.get(pk=session.pk).deadline
    clock.advance(600)
    barrier = threading.Barrier(4)
    given: list = []

    def start_a_process() -> None:
        barrier.wait()
        try:
            given.append(services.clocks_keep())
        finally:
            db.connection.close()

    threads = [threading.Thread(target=start_a_process) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert len(given) == 4
    assert [gap for gap in given if gap is not None] == [timedelta(seconds=600)]
    assert GameSession.objects.get(pk=session.pk).deadline == deadline + timedelta(seconds=600)


@pytest.mark.django_db(transaction=True)
def test_two_processes_checking_one_clock_hand_the_seat_over_once(players, clock):
    shared_services_or_skip()
    session = table(players, turn_seconds=15)
    clock.advance(15)
    barrier = threading.Barrier(2)
    results: list = []

    def check_in_a_process() -> None:
        barrier.wait()
        try:
            results.append(services.turn_check(session_id=session.pk, seen_seq=session.seq))
        finally:
            db.connection.close()

    threads = [threading.Thread(target=check_in_a_process) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert sum(result is not None for result in results) == 1  # the other found the table moved on
    seen = session.seq
    session.refresh_from_db()
    assert session.seq == seen + 1
    assert Seat.objects.filter(session=session, stand_in="strong").count() == 1


def test_sessions_started_before_turns_were_recorded_get_their_turn_at_start_up(players, clock):
    session = table(players, turn_seconds=30)
    GameSession.objects.filter(pk=session.pk).update(to_act=None, turn_since=None, deadline=None, due=None)
    call_command("computers_resume", stdout=io.StringIO())
    session.refresh_from_db()
    assert session.to_act == deal_state(session.deals.get()).to_act
    assert session.deadline == clock.now + timedelta(seconds=30)
    clock.advance(30)
    assert check(session) is not None
    assert to_act(session).stand_in == "strong"


def test_the_sweep_gives_a_session_without_a_recorded_turn_its_turn(players, clock):
    session = table(players, turn_seconds=30)
    GameSession.objects.filter(pk=session.pk).update(to_act=None, turn_since=None, deadline=None, due=None)
    session.refresh_from_db()
    assert session.pk in [row[0] for row in overdue_tables(clock.now)]
    assert check(session) is not None
    session.refresh_from_db()
    assert session.to_act == deal_state(session.deals.get()).to_act
    assert session.deadline == clock.now + timedelta(seconds=30)
