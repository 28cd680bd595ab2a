"""Tournaments: an arena's passes and scores, Swiss rounds with byes and tie-breaks, pausing,
withdrawing, the schedule, and results kept once."""

from __future__ import annotations

import itertools
import random
import threading
from datetime import timedelta

import pytest
from django.db import close_old_connections, connection
from django.utils import timezone

from games import services
from games.models import GameSession, Tournament, TournamentEntry, TournamentResult
from games.services import schedule, tournaments
from games.services.errors import TableError
from tests.site_helpers import current_deal

FIRST = "femkort"
ARENA_OPTIONS = {"target": 1}  # one win ends a session: short tables
NAP = "nap"


def play_out(session: GameSession, rng: random.Random) -> None:
    """Every person at the table plays a random legal action until the table is over."""
    while True:
        services.computers_play_all(session_id=session.pk, rng=rng)
        session.refresh_from_db()
        if session.status != GameSession.Status.PLAYING:
            return
        state = current_deal(session)
        seat = session.seats.get(position=state.to_act)
        services.action_take(
            session_id=session.pk,
            user=seat.user,
            action=rng.choice(sorted(state.legal_actions())),
            seen_seq=session.seq,
            rng=rng,
        )


def arena(creator, clock, minutes: int = 10, **fields) -> Tournament:
    return services.tournament_create(
        user=creator,
        kind="arena",
        game=FIRST,
        starts=timezone.now(),
        minutes=minutes,
        options=fields.pop("options", ARENA_OPTIONS),
        **fields,
    )


@pytest.fixture
def five(make_user):
    return [make_user(name) for name in ("alice", "bob", "carol", "dave", "erin")]


def live_tables(tournament: Tournament) -> list[GameSession]:
    return list(tournament.sessions.filter(status=GameSession.Status.PLAYING).order_by("pk"))


@pytest.mark.django_db
def test_an_arena_seats_free_players_by_score_and_fills_with_computers_after_a_wait(five, clock, settings):
    settings.FEMKORT_ARENA_FILL_SECONDS = 20
    event = arena(five[0], clock)
    for user in five[1:]:
        services.tournament_join(user=user, tournament_id=event.pk)
    assert services.tournament_start(event.pk) == "arena open: 1 tables"
    (table,) = live_tables(event)
    seated = {seat.user_id for seat in table.seats.all() if seat.user_id}
    assert len(seated) == 4
    assert not table.seats.filter(computer__gt="").exists()
    (waiting,) = TournamentEntry.objects.filter(tournament=event, free_since__isnull=False)
    assert waiting.user_id not in seated
    assert services.arena_pair(event.pk) == []  # alone, and not yet waited long enough
    version = Tournament.objects.get(pk=event.pk).version
    clock.advance(21)
    services.tournaments_tick()
    assert Tournament.objects.get(pk=event.pk).version > version  # open pages fetch the new table
    alone = live_tables(event)[1]
    assert [seat.user_id for seat in alone.seats.all() if seat.user_id] == [waiting.user_id]
    assert alone.seats.filter(computer="strong").count() == 3
    # Nobody is seated twice: another pass finds nobody free.
    assert services.arena_pair(event.pk) == []


@pytest.mark.django_db
def test_a_finished_arena_table_scores_once_and_frees_its_players(five, clock):
    event = arena(five[0], clock)
    for user in five[1:4]:
        services.tournament_join(user=user, tournament_id=event.pk)
    services.tournament_start(event.pk)
    (table,) = live_tables(event)
    play_out(table, random.Random(3))
    results = {r.user_id: r for r in TournamentResult.objects.filter(session=table)}
    assert len(results) == 4
    winners = [r for r in results.values() if r.won]
    assert len(winners) == 1
    assert winners[0].points == 2.0
    assert winners[0].share == 1.0
    # One win ends the session: the three others tie for second, each outplacing one of three (ties half).
    assert sorted(r.share for r in results.values()) == pytest.approx([1 / 3, 1 / 3, 1 / 3, 1.0])
    for entry in TournamentEntry.objects.filter(tournament=event):
        assert entry.points == results[entry.user_id].points
        assert entry.sessions == 1
        assert entry.free_since is not None  # free again: the next pass seats them
    # Scoring the same table again changes nothing.
    seats = list(table.seats.all())
    tournaments.table_over(table, seats, None)
    assert TournamentResult.objects.filter(session=table).count() == 4
    assert sum(e.points for e in TournamentEntry.objects.filter(tournament=event)) == sum(
        r.points for r in results.values()
    )


@pytest.mark.django_db
def test_a_streak_doubles_the_arena_points(five, clock):
    event = arena(five[0], clock)
    entry = TournamentEntry.objects.get(tournament=event, user=five[0])
    entry.streak = 2
    entry.save()
    services.tournament_start(event.pk)
    clock.advance(30)
    services.tournaments_tick()  # alone: a table with computers
    (table,) = live_tables(event)
    won = None
    for attempt in range(40):  # until alice wins one
        play_out(table, random.Random(attempt))
        result = TournamentResult.objects.get(session=table)
        if result.won:
            won = result
            break
        assert result.points == 2 * result.share
        TournamentEntry.objects.filter(pk=entry.pk).update(streak=2)
        clock.advance(30)
        services.tournaments_tick()
        table = live_tables(event)[0]
    assert won is not None
    assert won.points == 4.0


@pytest.mark.django_db
def test_pausing_keeps_a_player_from_new_tables_until_they_come_back(five, clock):
    event = arena(five[0], clock)
    services.tournament_join(user=five[1], tournament_id=event.pk)
    services.tournament_pause(user=five[1], tournament_id=event.pk, paused=True)
    services.tournament_start(event.pk)
    clock.advance(30)
    services.tournaments_tick()
    (table,) = live_tables(event)
    assert [seat.user_id for seat in table.seats.all() if seat.user_id] == [five[0].pk]
    services.tournament_join(user=five[1], tournament_id=event.pk)  # back
    assert TournamentEntry.objects.get(tournament=event, user=five[1]).paused is False
    clock.advance(30)
    services.tournaments_tick()
    assert five[1].pk in {seat.user_id for s in live_tables(event) for seat in s.seats.all()}


@pytest.mark.django_db
def test_an_arena_ends_lets_tables_finish_within_the_grace_and_names_a_winner(five, clock, settings):
    settings.FEMKORT_ARENA_GRACE_SECONDS = 120
    event = arena(five[0], clock)
    for user in five[1:4]:
        services.tournament_join(user=user, tournament_id=event.pk)
    services.tournament_start(event.pk)
    first = live_tables(event)[0]
    play_out(first, random.Random(5))
    services.arena_pair(event.pk)
    (second,) = live_tables(event)
    clock.advance(10 * 60)
    services.tournaments_tick()
    event.refresh_from_db()
    assert event.status == Tournament.Status.RUNNING  # its last table may still finish
    with pytest.raises(TableError):
        services.tournament_join(user=five[4], tournament_id=event.pk)
    clock.advance(121)
    services.tournaments_tick()
    event.refresh_from_db()
    second.refresh_from_db()
    assert second.status == GameSession.Status.ABANDONED
    assert event.status == Tournament.Status.FINISHED
    assert not TournamentResult.objects.filter(session=second, points__gt=0).exists()
    places = list(TournamentEntry.objects.filter(tournament=event).order_by("place"))
    assert [e.place for e in places] == [1, 2, 3, 4]
    assert places[0].points == 2.0


def swiss_entrants(make_user, count: int):
    return [make_user(f"player{number}") for number in range(count)]


@pytest.mark.django_db
def test_a_three_round_swiss_of_eight_pairs_nearest_scores_avoids_repeats_and_breaks_ties(make_user, clock):
    people = swiss_entrants(make_user, 8)
    event = services.tournament_create(
        user=people[0],
        kind="swiss",
        game=NAP,
        starts=timezone.now() + timedelta(minutes=5),
        rounds=3,
        deals=1,
        pace_seconds=24 * 3600,
        players=4,
    )
    for user in people[1:]:
        services.tournament_join(user=user, tournament_id=event.pk)
    assert services.tournament_start(event.pk) == "not yet"
    clock.advance(5 * 60)
    services.tournaments_tick()
    rng = random.Random(11)
    for round_number in (1, 2, 3):
        event.refresh_from_db()
        assert event.round == round_number
        tables = live_tables(event)
        assert len(tables) == 2
        assert all(t.pace_seconds == 24 * 3600 for t in tables)
        if round_number == 2:  # late joiners are refused from the second round
            with pytest.raises(TableError):
                services.tournament_join(user=make_user("late"), tournament_id=event.pk)
        for table in tables:
            play_out(table, rng)
        services.swiss_next(event.pk)  # as the task queued by the last table does
    event.refresh_from_db()
    assert event.status == Tournament.Status.FINISHED
    entries = list(TournamentEntry.objects.filter(tournament=event).order_by("place"))
    assert [e.place for e in entries] == list(range(1, 9))
    for better, worse in itertools.pairwise(entries):
        assert (better.points, better.opponents) >= (worse.points, worse.opponents)
    assert all(e.sessions == 3 for e in entries)
    assert sum(r.points for r in TournamentResult.objects.filter(tournament=event)) == pytest.approx(
        sum(e.points for e in entries)
    )


@pytest.mark.django_db
def test_swiss_byes_go_to_the_odd_ones_and_score_one(make_user, clock):
    people = swiss_entrants(make_user, 5)
    event = services.tournament_create(
        user=people[0], kind="swiss", game=NAP, starts=timezone.now(), rounds=2, deals=1, players=4
    )
    for user in people[1:]:
        services.tournament_join(user=user, tournament_id=event.pk)
    services.tournament_start(event.pk)
    (bye,) = TournamentResult.objects.filter(tournament=event, bye=True)
    assert bye.points == 1.0
    assert bye.round == 1
    (table,) = live_tables(event)
    play_out(table, random.Random(2))
    services.swiss_next(event.pk)
    second = TournamentResult.objects.get(tournament=event, bye=True, round=2)
    assert second.user_id != bye.user_id  # nobody sits out twice while another has not


@pytest.mark.django_db
def test_withdrawing_leaves_the_table_and_the_next_rounds(make_user, clock):
    people = swiss_entrants(make_user, 4)
    event = services.tournament_create(
        user=people[0], kind="swiss", game=NAP, starts=timezone.now(), rounds=2, deals=1, players=4
    )
    for user in people[1:]:
        services.tournament_join(user=user, tournament_id=event.pk)
    services.tournament_start(event.pk)
    services.tournament_withdraw(user=people[3], tournament_id=event.pk)
    (table,) = live_tables(event)
    assert table.seats.get(user=people[3]).left
    play_out(table, random.Random(4))
    assert TournamentResult.objects.get(session=table, user=people[3]).points == 0
    services.swiss_next(event.pk)
    (second,) = live_tables(event)
    assert people[3].pk not in {seat.user_id for seat in second.seats.all()}
    assert second.seats.filter(computer="strong").count() == 1  # three players left: one computer


@pytest.mark.django_db
def test_limits_and_refusals(five, clock):
    for _ in range(tournaments.OPEN_PER_CREATOR):
        arena(five[0], clock)
    with pytest.raises(TableError, match="not yet finished"):
        arena(five[0], clock)
    with pytest.raises(TableError):
        arena(five[1], clock, minutes=7)
    with pytest.raises(TableError):
        services.tournament_create(user=five[1], kind="swiss", game=FIRST, starts=timezone.now(), rounds=40)
    with pytest.raises(TableError):
        services.tournament_create(user=five[1], kind="cup", game=FIRST, starts=timezone.now())
    with pytest.raises(TableError):
        arena(five[1], clock, pace_seconds=3600)
    event = arena(five[1], clock)
    with pytest.raises(TableError):
        services.tournament_pause(user=five[2], tournament_id=event.pk, paused=True)


@pytest.mark.django_db
def test_the_schedule_makes_each_occurrence_once_and_the_tick_starts_it(clock, settings):
    settings.FEMKORT_TOURNAMENT_SCHEDULE = (
        f'[{{"kind": "arena", "game": "{FIRST}", "every": "hour", "minute": 30, "minutes": 30}}]'
    )
    services.tournaments_tick()
    services.tournaments_tick()
    (made,) = Tournament.objects.all()
    assert made.starts == clock.now.replace(minute=30)
    assert made.creator is None
    clock.advance(30 * 60)
    services.tournaments_tick()
    made.refresh_from_db()
    assert made.status == Tournament.Status.RUNNING
    assert Tournament.objects.count() == 2  # the next hour's is listed once this one started
    assert schedule.next_time({"every": "week", "weekday": 0, "hour": 18}, clock.now).weekday() == 0


@pytest.mark.django_db(transaction=True)
def test_joins_at_once_are_counted_once_and_pairing_seats_nobody_twice(make_user):
    if connection.vendor != "postgresql":
        pytest.skip("concurrent transactions need PostgreSQL (SQLite runs one writer at a time)")
    people = [make_user(f"racer{n}") for n in range(8)]
    event = services.tournament_create(
        user=people[0], kind="arena", game=FIRST, starts=timezone.now(), minutes=10, options=ARENA_OPTIONS
    )
    services.tournament_start(event.pk)
    barrier = threading.Barrier(len(people) - 1 + 3)
    errors: list[Exception] = []

    def run(call) -> None:
        try:
            barrier.wait()
            call()
        except Exception as error:
            errors.append(error)
        finally:
            close_old_connections()

    calls = [lambda user=user: services.tournament_join(user=user, tournament_id=event.pk) for user in people[1:]]
    calls += [lambda: services.arena_pair(event.pk)] * 3
    threads = [threading.Thread(target=run, args=(call,)) for call in calls]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    services.arena_pair(event.pk)
    assert TournamentEntry.objects.filter(tournament=event).count() == 8
    seated = [s.user_id for t in live_tables(event) for s in t.seats.all() if s.user_id]
    assert len(seated) == len(set(seated)) == 8


# -- pages ------------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_pages_list_open_join_and_show_live_standings(five, clock, client):
    client.force_login(five[0])
    answer = client.post(
        "/tournaments/",
        {"kind": "arena", "game": FIRST, "minutes": 10, "rounds": 3, "deals": 0, "pace_seconds": 0, "starts_in": 0},
    )
    event = Tournament.objects.get()
    assert answer.status_code == 302
    assert answer["Location"] == f"/tournaments/{event.pk}/"
    assert str(event) in client.get("/tournaments/").content.decode()
    for user in five[1:4]:
        client.force_login(user)
        assert client.post(f"/tournaments/{event.pk}/join/").status_code == 302
    services.tournament_start(event.pk)
    (table,) = live_tables(event)
    page = client.get(f"/tournaments/{event.pk}/").content.decode()
    assert f"/tables/{table.pk}/" in page
    assert "Your table is ready" in page
    event.refresh_from_db()
    assert client.get(f"/tournaments/{event.pk}/standings/?v={event.version}").status_code == 204
    play_out(table, random.Random(8))
    fresh = client.get(f"/tournaments/{event.pk}/standings/?v={event.version}")
    assert fresh.status_code == 200
    assert "2" in fresh.content.decode()
    exported = client.get(f"/tournaments/{event.pk}/standings.json").json()
    assert sum(row["tables"] for row in exported["standings"]) == 4
    assert max(row["points"] for row in exported["standings"]) == 2.0
    profile = client.get(f"/players/{five[3].username}/").content.decode()
    assert str(event) in profile


@pytest.mark.django_db
def test_a_private_tournament_and_its_tables_are_refused_to_strangers(five, clock, client):
    event = arena(five[0], clock, unlisted=True)
    services.tournament_start(event.pk)
    clock.advance(30)
    services.tournaments_tick()
    (table,) = live_tables(event)
    client.force_login(five[1])
    for address in (
        f"/tournaments/{event.pk}/",
        f"/tournaments/{event.pk}/standings/",
        f"/tournaments/{event.pk}/standings.json",
        f"/tables/{table.pk}/",
    ):
        assert client.get(address).status_code == 404, address
    assert client.post(f"/tournaments/{event.pk}/join/").status_code == 404
    assert client.get(f"/tournaments/{event.pk}/?code={event.code}").status_code == 200
    client.post(f"/tournaments/{event.pk}/join/", {"code": event.code})
    assert TournamentEntry.objects.filter(tournament=event, user=five[1]).exists()
    assert client.get(f"/tables/{table.pk}/").status_code == 200  # an entrant may watch the club's tables


@pytest.mark.django_db
def test_the_table_ready_notice_is_only_for_who_is_seated(five, clock):
    from games.notice_html import table_ready_notice

    event = arena(five[0], clock)
    services.tournament_start(event.pk)
    clock.advance(30)
    services.tournaments_tick()
    (table,) = live_tables(event)
    assert f"/tables/{table.pk}/" in table_ready_notice(five[0].pk, table.pk)
    assert table_ready_notice(five[1].pk, table.pk) == ""


# -- found by review: locks, access, pace, pause, schedule ------------------------------------------


@pytest.mark.django_db
def test_a_live_swiss_round_pauses_its_players_arenas(five, clock, settings):
    settings.FEMKORT_ARENA_FILL_SECONDS = 0
    arena_event = arena(five[0], clock)
    services.tournament_start(arena_event.pk)
    (arena_table,) = live_tables(arena_event)
    play_out(arena_table, random.Random(1))  # free again in the arena
    swiss = services.tournament_create(
        user=five[1], kind="swiss", game=FIRST, starts=timezone.now(), rounds=2, options=ARENA_OPTIONS
    )
    services.tournament_join(user=five[0], tournament_id=swiss.pk)
    services.tournament_start(swiss.pk)
    entry = TournamentEntry.objects.get(tournament=arena_event, user=five[0])
    assert entry.paused
    assert entry.free_since is None
    assert services.arena_pair(arena_event.pk) == []
    live = GameSession.objects.filter(status=GameSession.Status.PLAYING, pace_seconds=0, seats__user=five[0])
    assert live.count() == 1


@pytest.mark.django_db
def test_a_tournament_made_private_later_hides_its_tables_and_a_code_admits_the_browser(five, clock, client):
    from django.contrib.admin.sites import site as admin_site
    from django.test import RequestFactory

    from games.admin import TournamentAdmin

    event = arena(five[0], clock, options=ARENA_OPTIONS)
    services.tournament_start(event.pk)
    clock.advance(30)
    services.tournaments_tick()
    (table,) = live_tables(event)
    event.refresh_from_db()
    event.unlisted = True
    request = RequestFactory().post("/admin/")
    request.user = five[0]
    TournamentAdmin(Tournament, admin_site).save_model(request, event, None, change=True)
    event.refresh_from_db()
    assert event.code
    table.refresh_from_db()
    assert table.unlisted
    client.force_login(five[1])
    assert client.get(f"/tables/{table.pk}/").status_code == 404
    assert client.get(f"/tournaments/{event.pk}/?code={event.code}").status_code == 200
    for _ in range(15):  # the page's poll, for minutes: no try counted after the first
        assert client.get(f"/tournaments/{event.pk}/standings/?v=0").status_code == 200
    assert client.get(f"/tables/{table.pk}/").status_code == 200  # the code's holder may watch its tables


@pytest.mark.django_db
def test_a_tournament_table_keeps_its_pace(five, clock):
    event = arena(five[0], clock)
    services.tournament_start(event.pk)
    clock.advance(30)
    services.tournaments_tick()
    (table,) = live_tables(event)
    with pytest.raises(TableError, match="tournament's pace"):
        services.pace_ask(session_id=table.pk, user=five[0], pace_seconds=3 * 24 * 3600)


@pytest.mark.django_db
def test_coming_back_from_a_pause_waits_from_then(five, clock, settings):
    settings.FEMKORT_ARENA_FILL_SECONDS = 20
    event = arena(five[0], clock)
    services.tournament_join(user=five[1], tournament_id=event.pk)
    services.tournament_pause(user=five[1], tournament_id=event.pk, paused=True)
    services.tournament_start(event.pk)
    clock.advance(300)
    services.tournaments_tick()  # alice with computers; bob paused all along
    services.tournament_join(user=five[1], tournament_id=event.pk)
    assert services.arena_pair(event.pk) == []  # back just now: he waits for a player first
    clock.advance(21)
    assert len(services.arena_pair(event.pk)) == 1


@pytest.mark.django_db
def test_a_bad_schedule_entry_stops_nothing_else(five, clock, settings):
    settings.FEMKORT_TOURNAMENT_SCHEDULE = (
        f'[{{"kind": "arena", "game": "{FIRST}", "every": "month"}},'
        f' {{"kind": "arena", "game": "{FIRST}", "every": "hour", "minute": 30}},'
        f' {{"game": "{FIRST}"}}, 7]'
    )
    event = arena(five[0], clock)
    services.tournaments_tick()
    event.refresh_from_db()
    assert event.status == Tournament.Status.RUNNING
    assert not Tournament.objects.filter(creator__isnull=True).exists()  # an arena of no length is not made
    settings.FEMKORT_TOURNAMENT_SCHEDULE = "not json"
    services.tournaments_tick()


@pytest.mark.django_db
def test_partners_are_not_each_others_opponents_in_the_tie_break(make_user, clock):
    euchre = "euchre"
    people = [make_user(f"partner{n}") for n in range(4)]
    event = services.tournament_create(
        user=people[0], kind="swiss", game=euchre, starts=timezone.now(), rounds=2, deals=1, players=4
    )
    for user in people[1:]:
        services.tournament_join(user=user, tournament_id=event.pk)
    services.tournament_start(event.pk)
    (table,) = live_tables(event)
    play_out(table, random.Random(6))
    pairs = tournaments.opponents_met(event)
    assert len(pairs) == 4  # two sides of two: each player met the other side's two, not their partner
    seats = {seat.user_id: seat.position for seat in table.seats.all()}
    assert all(seats[one] % 2 != seats[other] % 2 for one, other in pairs)


def _postgresql_only() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("concurrent transactions need PostgreSQL (SQLite runs one writer at a time)")


@pytest.mark.django_db(transaction=True)
def test_withdrawing_while_ones_table_ends_takes_the_locks_in_the_same_order(make_user, settings):
    """A table ends holding its lock, then takes its tournament's; a withdrawal must not hold the
    tournament's while it waits for the table's (each would wait for the other)."""
    from django.db import transaction

    from games.services.locks import locked_session

    _postgresql_only()
    settings.FEMKORT_ARENA_FILL_SECONDS = 0
    player = make_user("leaver")
    event = services.tournament_create(
        user=player, kind="arena", game=FIRST, starts=timezone.now(), minutes=10, options=ARENA_OPTIONS
    )
    services.tournament_start(event.pk)
    (table,) = live_tables(event)
    locked = threading.Event()
    errors: list[Exception] = []

    def table_ends() -> None:
        try:
            with transaction.atomic():
                session = locked_session(table.pk)
                locked.set()
                for _ in range(300):  # until the withdrawal is committed (it must not need this lock)
                    if TournamentEntry.objects.filter(tournament=event, user=player, withdrawn=True).exists():
                        break
                    threading.Event().wait(0.1)
                else:
                    raise AssertionError("the withdrawal waited for the table's lock under the tournament's")
                tournaments.table_over(session, list(session.seats.all()), None)
        except Exception as error:
            errors.append(error)
        finally:
            close_old_connections()

    def withdraw() -> None:
        try:
            locked.wait()
            services.tournament_withdraw(user=player, tournament_id=event.pk)
        except Exception as error:
            errors.append(error)
        finally:
            close_old_connections()

    threads = [threading.Thread(target=table_ends), threading.Thread(target=withdraw)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors, errors


@pytest.mark.django_db(transaction=True)
def test_two_arenas_passes_at_once_seat_a_player_once(make_user, settings, monkeypatch):
    from games.services import seating

    _postgresql_only()
    settings.FEMKORT_ARENA_FILL_SECONDS = 0
    player = make_user("both")
    one = services.tournament_create(
        user=player, kind="arena", game=FIRST, starts=timezone.now(), minutes=10, options=ARENA_OPTIONS
    )
    two = services.tournament_create(
        user=make_user("other"), kind="arena", game=FIRST, starts=timezone.now(), minutes=10, options=ARENA_OPTIONS
    )
    services.tournament_join(user=player, tournament_id=two.pk)
    TournamentEntry.objects.filter(tournament=two).exclude(user=player).update(paused=True)
    Tournament.objects.filter(pk__in=[one.pk, two.pk]).update(status=Tournament.Status.RUNNING)
    first_looked, second_looked = threading.Event(), threading.Event()
    real = seating._busy_elsewhere

    def busy(user_ids):
        found = real(user_ids)
        if not first_looked.is_set():
            first_looked.set()
            second_looked.wait(5)  # the other pass must not get this far before this one commits
        else:
            second_looked.set()
        return found

    monkeypatch.setattr(seating, "_busy_elsewhere", busy)
    errors: list[Exception] = []

    def run(tournament_id: int, after: threading.Event | None) -> None:
        try:
            if after is not None:
                after.wait()
            seating.arena_pair(tournament_id)
        except Exception as error:
            errors.append(error)
        finally:
            close_old_connections()

    threads = [
        threading.Thread(target=run, args=(one.pk, None)),
        threading.Thread(target=run, args=(two.pk, first_looked)),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    live = GameSession.objects.filter(status=GameSession.Status.PLAYING, seats__user=player, seats__left=False)
    assert live.count() == 1


@pytest.mark.django_db
def test_a_duplicate_swiss_deals_each_round_the_same_at_every_table_and_scores_matchpoints(make_user, clock, client):
    from games.models import Deal, DuplicateEvent

    people = swiss_entrants(make_user, 8)
    event = services.tournament_create(
        user=people[0], kind="swiss", game=NAP, starts=timezone.now(), rounds=2, deals=2, players=4, duplicate=True
    )
    for user in people[1:]:
        services.tournament_join(user=user, tournament_id=event.pk)
    services.tournament_start(event.pk)
    rng = random.Random(9)
    for round_number in (1, 2):
        event.refresh_from_db()
        first, second = live_tables(event)
        assert first.event_id == second.event_id == event.round_event_id
        # Before playing, nobody sees the other table of the round.
        outsider = first.seats.filter(user__isnull=False).first().user
        client.force_login(outsider)
        assert client.get(f"/tables/{second.pk}/").status_code == 404
        for table in (first, second):
            play_out(table, rng)
        for number in (1, 2):
            setups = [Deal.objects.get(session=table, number=number).setup for table in (first, second)]
            assert setups[0] == setups[1]  # the same cards at both tables
        assert client.get(f"/tables/{second.pk}/").status_code == 200  # played: now it may be compared
        services.swiss_next(event.pk)
        results = TournamentResult.objects.filter(tournament=event, round=round_number)
        assert results.count() == 8
        # Two tables: at each deal and seat one result beats, ties or loses to the other, so the
        # percentages of a seat's two results sum to 100 and the round's shares sum to 4.
        assert sum(r.share for r in results) == pytest.approx(4.0)
        assert DuplicateEvent.objects.get(pk=first.event_id).reveals <= timezone.now()
    event.refresh_from_db()
    assert event.status == Tournament.Status.FINISHED
    assert sorted(e.place for e in TournamentEntry.objects.filter(tournament=event)) == list(range(1, 9))


@pytest.mark.django_db
def test_only_a_swiss_of_a_few_deals_is_duplicate(five, clock):
    with pytest.raises(TableError, match="duplicate"):
        services.tournament_create(
            user=five[0], kind="swiss", game=FIRST, starts=timezone.now(), rounds=2, duplicate=True
        )
    with pytest.raises(TableError, match="duplicate"):
        arena(five[0], clock, deals=2, duplicate=True)
