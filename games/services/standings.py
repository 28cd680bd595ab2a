"""Leaderboard counters and ratings, updated in the transaction that finishes a session.

Ratings are openskill's Weng-Lin Plackett-Luce model with the game's partnerships as teams
(each seat alone in most games; Euchre's two pairs), ranked by the game's own final ranking
(wins, chips, tokens; ties share a rank); the board shows the conservative ordinal
mu - 3 sigma. Sessions with any computer player at the start are rated apart from
sessions among people only (see ``Standing``), and computer levels are rated as
themselves. A person who left, or whose seat a computer was playing at the end, has
played and lost the session: never its winner, ranked below every other seat (taken out
of its partnership, which the partner who stayed carries on); the computer that stood in
counts for nothing.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from datetime import date, datetime, timedelta

from django.db import transaction
from django.db.models import Count
from openskill.models import PlackettLuce

from games.engine import get_game
from games.models import Deal, GameSession, PeriodStanding, Seat, Standing
from games.stored import match_of, sides_of

MODEL = PlackettLuce()


def standings_record(session: GameSession, seats: Sequence[Seat]) -> None:
    """Count a finished session for every seat and move their ratings."""
    against = Standing.Against.COMPUTERS if session.with_computers else Standing.Against.PEOPLE
    standings = {}
    for seat in seats:
        key = (seat.user_id, seat.computer)
        if key not in standings:
            standings[key] = _standing(session.game, against, seat)
    before = [standings[(seat.user_id, seat.computer)] for seat in seats]
    rules = get_game(session.game)
    ranking = rules.ranking(match_of(session, seats))
    deals_won: dict[int, int] = {}
    if rules.counts_deals_won:
        won = Deal.objects.filter(session=session, winner__isnull=False).values("winner").annotate(count=Count("pk"))
        deals_won = {row["winner"]: row["count"] for row in won}
    bottom = min(ranking) - 1
    scores = [bottom if _lost(seat) else rank for seat, rank in zip(seats, ranking, strict=True)]
    # Partnerships are rated as teams; a seat that left is taken out of its team and ranked last alone.
    partnerships = [
        part
        for team in sides_of(session, len(seats))
        for part in ([s for s in team if not _lost(seats[s])], *([s] for s in team if _lost(seats[s])))
        if part
    ]
    teams = [[MODEL.rating(mu=before[seat].mu, sigma=before[seat].sigma) for seat in team] for team in partnerships]
    rated = MODEL.rate(teams, scores=[max(scores[seat] for seat in team) for team in partnerships])
    after = {
        seat: rating
        for team, ratings in zip(partnerships, rated, strict=True)
        for seat, rating in zip(team, ratings, strict=True)
    }
    moved: dict[tuple, list] = defaultdict(list)
    for seat, standing in zip(seats, before, strict=True):
        rating = after[seat.position]
        standing.sessions_played += 1
        standing.sessions_won += _won(session, seat)
        standing.deals_won += deals_won.get(seat.position, 0)
        standing.last_played = session.finished
        moved[(seat.user_id, seat.computer)].append(rating)
    for key, ratings in moved.items():
        # Two computers of one level at one table share a standing: it takes their mean.
        standing = standings[key]
        standing.mu = sum(r.mu for r in ratings) / len(ratings)
        standing.sigma = sum(r.sigma for r in ratings) / len(ratings)
        standing.rating = standing.mu - 3 * standing.sigma
        standing.save()
    for seat in seats:
        seat.rating_after = standings[(seat.user_id, seat.computer)].rating
        seat.save(update_fields=["rating_after"])
    _count_in_periods(session, against, seats)


def _lost(seat: Seat) -> bool:
    """Left, or replaced by a computer at the end: the session counts as played and lost."""
    return bool(seat.user_id and seat.stand_in)


def _won(session: GameSession, seat: Seat) -> bool:
    return seat.won and not _lost(seat)


def period_starts(moment: datetime) -> dict[str, date]:
    """The calendar month and ISO week (from Monday) that ``moment`` falls in, in UTC."""
    day = moment.date()
    return {"month": day.replace(day=1), "week": day - timedelta(days=day.weekday())}


def _count_in_periods(session: GameSession, against: str, seats: Sequence[Seat]) -> None:
    for period, starts in period_starts(session.finished).items():
        for seat in seats:
            lookup = {"user_id": seat.user_id} if seat.user_id else {"computer": seat.computer}
            row, _ = PeriodStanding.objects.select_for_update().get_or_create(
                game=session.game, against=against, period=period, starts=starts, **lookup
            )
            row.sessions_played += 1
            row.sessions_won += _won(session, seat)
            row.save(update_fields=["sessions_played", "sessions_won"])


def _standing(game: str, against: str, seat: Seat) -> Standing:
    lookup = {"user_id": seat.user_id} if seat.user_id else {"computer": seat.computer}
    standing = Standing.objects.select_for_update().filter(game=game, against=against, **lookup).first()
    if standing is None:
        start = MODEL.rating()
        standing = Standing(game=game, against=against, mu=start.mu, sigma=start.sigma, **lookup)
        standing.rating = start.mu - 3 * start.sigma
    return standing


@transaction.atomic
def standings_rebuild() -> int:
    """Recompute every counter and rating from the stored sessions, oldest first; returns sessions counted."""
    Standing.objects.all().delete()
    PeriodStanding.objects.all().delete()
    Seat.objects.exclude(rating_after=None).update(rating_after=None)
    finished = GameSession.objects.filter(
        status=GameSession.Status.FINISHED,
        event__isnull=True,
        same_deals_as__isnull=True,  # as ``play.rated``
    ).order_by("finished", "pk")
    count = 0
    for session in finished.iterator(chunk_size=500):
        standings_record(session, list(session.seats.order_by("position")))
        count += 1
    return count
