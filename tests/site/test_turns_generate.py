"""``turns_generate`` (the turn-based tables the scale benchmark reads): rows as play would leave them."""

from __future__ import annotations

import io
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games.engine import GAMES
from games.models import GameSession, Seat, SeedDraw
from games.my_tables import my_tables, waiting_count
from games.selectors import overdue_tables
from games.stored import deal_state

pytestmark = pytest.mark.django_db


@pytest.fixture
def generated():
    out = io.StringIO()
    call_command(
        "turns_generate",
        "--tables",
        "20",
        "--players",
        "12",
        "--busy-player",
        "ulla",
        "--busy-tables",
        "6",
        "--overdue",
        "0.25",
        "--seed",
        "3",
        stdout=out,
    )
    return out.getvalue()


def test_each_table_is_in_play_with_four_people_and_the_turn_its_deal_says(generated):
    sessions = list(GameSession.objects.prefetch_related("seats", "deals"))
    assert len(sessions) == 20
    assert Seat.objects.count() == 80
    for session in sessions:
        seats = list(session.seats.all())
        assert session.status == GameSession.Status.PLAYING
        assert session.game in GAMES
        assert session.pace_seconds > 0
        assert [seat.position for seat in seats] == [0, 1, 2, 3] == list(range(session.seat_count))
        assert len({seat.user_id for seat in seats}) == 4
        assert all(seat.user_id and not seat.computer and not seat.stand_in for seat in seats)
        (deal,) = session.deals.all()
        state = deal_state(deal)  # the stored setup and actions replay
        assert not state.is_over
        assert session.to_act == state.to_act
        assert session.due == session.deadline == session.turn_since + timedelta(seconds=session.pace_seconds)
        assert session.next_commitment == SeedDraw.objects.get(session=session, number=2).commitment


def test_some_deadlines_have_passed_and_the_sweep_finds_just_those(generated):
    now = timezone.now()
    late = set(GameSession.objects.filter(deadline__lte=now).values_list("pk", flat=True))
    assert late
    assert late < set(GameSession.objects.values_list("pk", flat=True))
    assert {row[0] for row in overdue_tables(now)} == late
    assert f"{len(late)} overdue" in generated


def test_the_busy_player_sits_at_their_tables_a_third_waiting_on_them(generated):
    busy = User.objects.get(username="ulla")
    assert Seat.objects.filter(user=busy).count() == 6
    assert waiting_count(busy.pk) == 2
    tables = my_tables(busy.pk)
    assert len(tables.waiting_on_me) == 2
    assert len(tables.waiting_on_others) == 4
    assert all(row.seat.position == row.session.to_act for row in tables.waiting_on_me)
    assert "ulla sits at 6, 2 waiting on them" in generated


def test_my_tables_at_the_generated_tables_reads_a_few_queries_whatever_their_number(
    generated, django_assert_max_num_queries
):
    busy = User.objects.get(username="ulla")
    client = Client()
    client.force_login(busy)
    with django_assert_max_num_queries(8):  # the login's 2, My tables' 3, the header's 3
        page = client.get(reverse("my_tables")).content.decode()
    mine, others = page.split('id="waiting-on-others"')
    for seat in Seat.objects.filter(user=busy).select_related("session"):
        link = f"/tables/{seat.session_id}/"
        if seat.position == seat.session.to_act:
            assert link in mine
        else:
            person = Seat.objects.get(session=seat.session, position=seat.session.to_act).user
            assert f"{person.username} to play" in others.split(link, 1)[1].split("</li>", 1)[0]
