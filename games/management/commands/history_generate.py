"""Generate a synthetic history (players, finished sessions, seats, deals, some plays) for benchmarks."""

from __future__ import annotations

import random
import time
from datetime import timedelta

from django.core.management.base import BaseCommand
from django.db import connection, transaction
from django.utils import timezone
from openskill.models import PlackettLuce

from accounts.models import User
from games.engine import FEMKORT
from games.models import Deal, GameSession, PeriodStanding, Play, Seat, Standing
from games.services.standings import period_starts

BATCH = 2000


class Command(BaseCommand):
    help = "Add N players and M finished Femkort sessions of random play (plays stored for a sample of deals)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--players", type=int, default=10_000)
        parser.add_argument("--sessions", type=int, default=200_000)
        parser.add_argument("--plays-sample", type=float, default=0.01, help="share of deals stored card by card")
        parser.add_argument("--seed", type=int, default=1)

    def handle(self, *args, players: int, sessions: int, plays_sample: float, seed: int, **options) -> None:
        rng = random.Random(seed)
        started = time.perf_counter()
        prefix = f"gen{seed}x{int(time.time())}"
        users = User.objects.bulk_create(
            [User(username=f"{prefix}-{i}", password="!") for i in range(players)], batch_size=BATCH
        )
        model = PlackettLuce()
        ratings: dict[int, tuple[float, float]] = {}
        counters: dict[int, list[int]] = {}
        periods: dict[tuple, list[int]] = {}
        now = timezone.now()
        options = FEMKORT.parse_options(None)
        for first in range(0, sessions, BATCH):
            with transaction.atomic():
                self._batch(
                    rng,
                    users,
                    min(BATCH, sessions - first),
                    now,
                    options,
                    plays_sample,
                    model,
                    ratings,
                    counters,
                    periods,
                )
            self.stdout.write(f"{first + BATCH} sessions", ending="\r")
        Standing.objects.bulk_create(
            [
                Standing(
                    game="femkort",
                    against=Standing.Against.PEOPLE,
                    user_id=user_id,
                    sessions_played=c[0],
                    sessions_won=c[1],
                    deals_won=c[2],
                    mu=ratings[user_id][0],
                    sigma=ratings[user_id][1],
                    rating=ratings[user_id][0] - 3 * ratings[user_id][1],
                    last_played=now,
                )
                for user_id, c in counters.items()
            ],
            batch_size=BATCH,
        )
        PeriodStanding.objects.bulk_create(
            [
                PeriodStanding(
                    game="femkort",
                    against=Standing.Against.PEOPLE,
                    period=period,
                    starts=starts,
                    user_id=user_id,
                    sessions_played=c[0],
                    sessions_won=c[1],
                )
                for (user_id, period, starts), c in periods.items()
            ],
            batch_size=BATCH,
        )
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("ANALYZE")  # fresh planner statistics, as autovacuum would give a live site
        elapsed = time.perf_counter() - started
        self.stdout.write(f"generated {players} players and {sessions} sessions in {elapsed:.0f} s")

    def _batch(self, rng, users, count, now, options, plays_sample, model, ratings, counters, periods) -> None:
        tables = []
        for _ in range(count):
            seated = rng.sample(users, rng.randint(3, 5))
            finished = now - timedelta(seconds=rng.randrange(365 * 24 * 3600))
            tables.append((seated, finished))
        sessions = GameSession.objects.bulk_create(
            [
                GameSession(
                    game="femkort",
                    options={"profile": "modern", "trump": False, "pot": False, "stack": 10, "target": 3},
                    seat_count=len(seated),
                    status=GameSession.Status.FINISHED,
                    host=seated[0],
                    seq=1,
                    started=finished - timedelta(minutes=20),
                    finished=finished,
                )
                for seated, finished in tables
            ]
        )
        seats, deals, plays = [], [], []
        outcomes = []
        for session, (seated, _) in zip(sessions, tables, strict=True):
            n = len(seated)
            wins = [0] * n
            dealer = rng.randrange(n)
            number = 0
            while max(wins) < 3:
                number += 1
                state = FEMKORT.deal(players=n, dealer=dealer, options=options, rng=rng)
                cards = []
                if rng.random() < plays_sample:
                    while not state.is_over:
                        card = rng.choice(state.legal_cards())
                        cards.append((state.to_act, card))
                        state = state.play(card)
                    winner = state.winner
                else:
                    winner = rng.randrange(n)
                wins[winner] += 1
                deal = Deal(
                    session=session,
                    number=number,
                    dealer=dealer,
                    setup=FEMKORT.setup_of(state),
                    winner=winner,
                    finished=session.finished,
                )
                deals.append(deal)
                plays.append((deal, cards))
                dealer = (dealer + 1) % n
            session.match = {"dealer": dealer, "wins": wins, "winners": [wins.index(3)]}
            table = [
                Seat(session=session, position=i, user=user, won=i == wins.index(3)) for i, user in enumerate(seated)
            ]
            seats += table
            outcomes.append((session, table, seated, wins))
        Seat.objects.bulk_create(seats, batch_size=BATCH)
        Deal.objects.bulk_create(deals, batch_size=BATCH)
        Play.objects.bulk_create(
            [
                Play(deal=deal, seq=i + 1, seat=seat, action=card)
                for deal, cards in plays
                for i, (seat, card) in enumerate(cards)
            ],
            batch_size=BATCH,
        )
        winners = []
        for session, table, seated, wins in outcomes:
            winner_seat = table[wins.index(3)]
            session.winner = winner_seat
            winners.append(session)
            teams = [[model.rating(*ratings.get(user.pk, (25.0, 25.0 / 3)))] for user in seated]
            for user, seat, seat_wins, (rating,) in zip(
                seated, table, wins, model.rate(teams, scores=wins), strict=True
            ):
                ratings[user.pk] = (rating.mu, rating.sigma)
                counter = counters.setdefault(user.pk, [0, 0, 0])
                counter[0] += 1
                counter[1] += seat is winner_seat
                counter[2] += seat_wins
                seat.rating_after = rating.mu - 3 * rating.sigma
                for period, starts in period_starts(session.finished).items():
                    tally = periods.setdefault((user.pk, period, starts), [0, 0])
                    tally[0] += 1
                    tally[1] += seat is winner_seat
        GameSession.objects.bulk_update(winners, ["winner", "match"], batch_size=BATCH)
        Seat.objects.bulk_update(seats, ["rating_after"], batch_size=BATCH)
