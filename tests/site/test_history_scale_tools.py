"""The synthetic-history generator and the page benchmark (tiny sizes here; figures in docs/history.md)."""

import io

import pytest
from django.core.management import call_command
from django.db.models import Sum

from games.engine import GAMES
from games.models import Deal, GameSession, PeriodStanding, Play, Seat, Standing
from games.stored import deal_state, match_of

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("game", sorted(GAMES))
def test_any_game_has_a_generated_history(game):
    call_command("history_generate", players=8, sessions=3, plays_sample=1, seed=2, game=game, stdout=io.StringIO())
    for session in GameSession.objects.filter(game=game):
        assert match_of(session, list(session.seats.all())).finished  # played to its end, settled by its game
        for deal in session.deals.all():
            assert deal_state(deal).is_over  # every action stored: each deal replays to its end
            winners = deal_state(deal).outcome().winners
            assert deal.winner == (winners[0] if len(winners) == 1 else None)
    assert Seat.objects.filter(session__game=game, rating_after__isnull=False).count() == Seat.objects.count()


def test_generated_history_is_consistent_and_pages_are_benchmarked():
    call_command("history_generate", players=12, sessions=30, plays_sample=0.5, seed=3, stdout=io.StringIO())
    assert GameSession.objects.filter(status="finished").count() == 30
    for session in GameSession.objects.all():
        match = match_of(session, list(session.seats.all()))
        assert match.finished
        assert session.winner.position in match.winners
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
