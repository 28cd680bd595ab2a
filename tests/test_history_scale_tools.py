"""The synthetic-history generator and the page benchmark (tiny sizes here; figures in the README)."""

import io

import pytest
from django.core.management import call_command
from django.db.models import Sum

from games.models import Deal, GameSession, PeriodStanding, Play, Seat, Standing
from games.records import deal_state

pytestmark = pytest.mark.django_db


def test_generated_history_is_consistent_and_pages_are_benchmarked():
    call_command("history_generate", players=12, sessions=30, plays_sample=0.5, seed=3, stdout=io.StringIO())
    assert GameSession.objects.filter(status="finished").count() == 30
    for session in GameSession.objects.all():
        wins = sorted(session.match["wins"])
        assert wins[-1] == 3
        assert wins[-2] < 3
        assert session.match["wins"][session.winner.position] == 3
        assert session.deals.count() == sum(wins)
    played = Standing.objects.aggregate(n=Sum("sessions_played"))["n"]
    assert played == Seat.objects.count()
    assert Standing.objects.aggregate(n=Sum("sessions_won"))["n"] == 30
    for period in ("month", "week"):
        rows = PeriodStanding.objects.filter(period=period)
        assert rows.aggregate(n=Sum("sessions_played"))["n"] == Seat.objects.count()
        assert rows.aggregate(n=Sum("sessions_won"))["n"] == 30
    # Deals stored card by card replay to their stored winner.
    with_plays = Deal.objects.filter(pk__in=Play.objects.values("deal")).distinct()
    assert with_plays.exists()
    for deal in with_plays:
        assert deal_state(deal).winner == deal.winner
    out = io.StringIO()
    call_command("bench_pages", repeat=1, stdout=out)
    lines = out.getvalue().splitlines()
    assert len(lines) == 9
    assert all("queries" in line for line in lines[1:])
