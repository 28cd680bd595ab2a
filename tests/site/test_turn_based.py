"""Turn-based tables: a pace chosen when the table opens, a deadline per move instead of a turn clock,
a computer moving for a person whose deadline passed, and taking the seat after several in a row."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games import services
from games.engine.tricks.deal import ACTION_WORDS
from games.models import GameSession, Play, Seat
from games.stored import deal_state
from tests.site_helpers import started_table

pytestmark = pytest.mark.django_db
DAY = 24 * 3600


def person_to_act(session: GameSession) -> Seat:
    """Play computers' turns until a person must act; that person's seat."""
    services.computers_play_all(session_id=session.pk)
    session.refresh_from_db()
    return Seat.objects.select_related("user").get(session=session, position=session.to_act)


def to_act_now(session: GameSession) -> int | None:
    return GameSession.objects.get(pk=session.pk).to_act


def a_card(session: GameSession) -> str:
    state = deal_state(session.deals.order_by("-number").first())
    return next(action for action in state.legal_actions() if action not in ACTION_WORDS)


def test_a_turn_based_table_gives_each_move_its_pace_as_a_deadline_and_no_turn_clock(players, clock):
    session = started_table(players[:2], computers=1, game="nap", options={"rounds": 2}, pace_seconds=DAY)
    seat = person_to_act(session)
    assert session.turn_based
    assert session.turn_seconds == 0
    assert session.deadline == session.due == session.turn_since + timedelta(days=1)
    clock.advance(3 * 3600)  # gone for hours, no socket: nobody takes the seat at a turn-based table
    assert services.turn_check(session_id=session.pk, seen_seq=session.seq) is not None
    seat.refresh_from_db()
    assert seat.stand_in == ""
    assert seat.missed == 0
    assert not Play.objects.filter(deal__session=session, seat=seat.position).exists()


def test_a_passed_deadline_has_a_computer_make_that_one_move_and_the_seat_stays_its_players(players, clock):
    session = started_table(players[:2], computers=1, game="nap", options={"rounds": 2}, pace_seconds=3600)
    seat = person_to_act(session)
    plays_before = Play.objects.filter(deal__session=session).count()
    clock.advance(3600 + 1)
    services.turn_check(session_id=session.pk, seen_seq=session.seq)
    seat.refresh_from_db()
    assert seat.missed == 1
    assert seat.stand_in == ""
    last = Play.objects.filter(deal__session=session).order_by("-deal__number", "-seq").first()
    assert Play.objects.filter(deal__session=session).count() == plays_before + 1
    assert last.seat == seat.position


def test_missing_deadlines_in_a_row_lets_the_computer_keep_the_seat_until_taken_back(players, clock, settings):
    settings.FEMKORT_MISSED_DEADLINES = 2
    session = started_table(players[:2], computers=1, game="nap", options={"rounds": 3}, pace_seconds=3600)
    first = person_to_act(session)
    clock.advance(3601)
    services.turn_check(session_id=session.pk, seen_seq=session.seq)
    while True:  # until the same person's next turn
        seat = person_to_act(session)
        if seat.pk == first.pk:
            break
        services.action_take(session_id=session.pk, user=seat.user, action=a_card(session), seen_seq=session.seq)
    clock.advance(3601)
    services.turn_check(session_id=session.pk, seen_seq=session.seq)
    first.refresh_from_db()
    assert first.missed == 2
    assert first.stand_in == "medium"  # the table's strongest computer
    while to_act_now(session) == first.position:  # it plays the move it took the seat on (and leads if it won)
        assert services.computer_turn(session_id=session.pk) is not None
    services.seat_reclaim(session_id=session.pk, user=first.user)
    first.refresh_from_db()
    assert first.stand_in == ""
    assert first.missed == 0


def test_a_move_of_ones_own_starts_the_count_of_missed_deadlines_again(players, clock):
    session = started_table(players[:2], computers=1, game="nap", options={"rounds": 3}, pace_seconds=3600)
    first = person_to_act(session)
    clock.advance(3601)
    services.turn_check(session_id=session.pk, seen_seq=session.seq)
    while True:
        seat = person_to_act(session)
        services.action_take(session_id=session.pk, user=seat.user, action=a_card(session), seen_seq=session.seq)
        if seat.pk == first.pk:
            break
    first.refresh_from_db()
    assert first.missed == 0


def test_the_lobby_form_opens_a_turn_based_table_and_refuses_an_unknown_pace(players):
    client = Client()
    client.force_login(players[0])
    form = {"game": "nap", "seats": 3, "rounds": 1, "pace_seconds": str(DAY)}
    response = client.post(reverse("table_create"), form)
    session = GameSession.objects.get(host=players[0])
    assert response.status_code == 302
    assert session.pace_seconds == DAY
    page = client.get(reverse("table", args=[session.pk])).content.decode()
    assert "turn-based, 1 day per move" in page
    refused = client.post(reverse("table_create"), form | {"pace_seconds": "77"})
    assert refused.status_code == 400
    assert GameSession.objects.filter(host=players[0]).count() == 1
    with pytest.raises(services.TableError):
        services.table_create(host=players[1], seats=3, game="nap", pace_seconds=77)


def test_play_again_keeps_the_pace(players):
    session = started_table(players[:2], computers=1, game="nap", options={"rounds": 1}, pace_seconds=8 * 3600)
    GameSession.objects.filter(pk=session.pk).update(status=GameSession.Status.FINISHED)
    again = services.session_rematch(session_id=session.pk, user=players[0])
    assert again.pace_seconds == 8 * 3600


def test_a_waiting_turn_based_table_waits_days_for_its_players_a_live_one_half_an_hour(players, clock):
    live = services.table_create(host=players[0], seats=3, game="nap")
    slow = services.table_create(host=players[1], seats=3, game="nap", pace_seconds=DAY)
    clock.advance(2 * 3600)
    services.tables_expire()
    statuses = dict(GameSession.objects.values_list("pk", "status"))
    assert statuses[live.pk] == GameSession.Status.CLOSED
    assert statuses[slow.pk] == GameSession.Status.WAITING
    clock.advance(8 * DAY)
    services.tables_expire()
    assert GameSession.objects.get(pk=slow.pk).status == GameSession.Status.CLOSED


def test_a_live_session_turns_turn_based_when_everyone_seated_agrees_and_back(players, clock):
    session = started_table(players, game="nap", options={"rounds": 2})
    anna, bjorn, cecilia = players
    services.pace_ask(session_id=session.pk, user=anna, pace_seconds=DAY)
    services.pace_answer(session_id=session.pk, user=bjorn, agree=True)
    session.refresh_from_db()
    assert session.pace_seconds == 0  # not everyone yet
    with pytest.raises(services.TableError):
        services.pace_answer(session_id=session.pk, user=bjorn, agree=True)  # once each
    with pytest.raises(services.TableError):
        services.pace_ask(session_id=session.pk, user=cecilia, pace_seconds=3600)  # one ask at a time
    services.pace_answer(session_id=session.pk, user=cecilia, agree=True)
    session.refresh_from_db()
    assert session.pace_seconds == DAY
    assert session.pace_asked == {}
    assert session.deadline == timezone.now() + timedelta(days=1)
    services.pace_ask(session_id=session.pk, user=bjorn, pace_seconds=0)
    services.pace_answer(session_id=session.pk, user=anna, agree=False)
    session.refresh_from_db()
    assert session.pace_seconds == DAY
    assert session.pace_asked == {}


def test_the_table_offers_the_change_of_pace_and_the_answer_to_the_people_seated(players):
    session = started_table(players, game="nap", options={"rounds": 2})
    asker, other = Client(), Client()
    asker.force_login(players[0])
    other.force_login(players[1])
    assert "Change the pace" in asker.get(reverse("table", args=[session.pk])).content.decode()
    choices = asker.get(reverse("pace_change", args=[session.pk])).content.decode()
    assert 'value="86400"' in choices
    assert 'value="0"' not in choices  # the table's own pace is not offered
    assert asker.post(reverse("pace_change", args=[session.pk]), {"pace": "77"}).status_code in (302, 400)
    session.refresh_from_db()
    assert session.pace_asked == {}
    asker.post(reverse("pace_change", args=[session.pk]), {"pace": str(DAY)})
    page = other.get(reverse("table", args=[session.pk])).content.decode()
    assert "asks to play on: 1 day per move" in page
    assert 'name="agree"' in page
    spectator = Client()
    assert spectator.post(reverse("pace_change", args=[session.pk]), {"agree": "1"}).status_code == 302  # log in
    session.refresh_from_db()
    assert session.pace_asked["yes"] == [players[0].pk]


def test_a_private_tables_pace_page_answers_404_to_someone_who_guesses_its_address(players, make_user):
    session = services.table_create(host=players[0], seats=3, game="nap", unlisted=True)
    for user in players[1:]:
        services.seat_take(session_id=session.pk, user=user)
    services.session_start(session_id=session.pk, user=players[0])
    stranger = Client()
    stranger.force_login(make_user("dora"))
    assert stranger.get(reverse("pace_change", args=[session.pk])).status_code == 404
    assert stranger.post(reverse("pace_change", args=[session.pk]), {"pace": str(DAY)}).status_code == 404
    session.refresh_from_db()
    assert session.pace_asked == {}
