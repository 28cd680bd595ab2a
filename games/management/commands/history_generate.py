"""Generate a synthetic history (players, finished sessions, seats, deals, some plays) for benchmarks.

Any registered game, through the game protocol: each session is its game's match, dealt and
played at random to its end (bids and calls by the game's rule of thumb, where it has one) and
settled as the game settles it; the actions of a sample of
deals are stored (the others keep their setup and winner only, as a large site's old deals
might)."""

from __future__ import annotations

import random
import time
from dataclasses import asdict
from datetime import timedelta

from django.core.management.base import BaseCommand
from django.db import connection, transaction
from django.utils import timezone
from openskill.models import PlackettLuce

from accounts.models import User
from games.engine import GAMES
from games.engine.cards import INDEX
from games.models import Deal, GameSession, PeriodStanding, Play, Seat, Standing
from games.services.standings import period_starts
from games.stored import seat_choices

BATCH = 2000
MAX_DEALS = 500  # a session of random play that has not ended by then is cut short


class Command(BaseCommand):
    help = "Add N players and M finished sessions of a game, played at random (plays stored for a sample of deals)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--players", type=int, default=10_000)
        parser.add_argument("--sessions", type=int, default=200_000)
        parser.add_argument("--plays-sample", type=float, default=0.01, help="share of deals stored card by card")
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--game", choices=sorted(GAMES), help="the game (default: the first registered)")

    def handle(
        self, *args, players: int, sessions: int, plays_sample: float, seed: int, game: str | None, **options
    ) -> None:
        game = game or next(iter(GAMES))
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
        for first in range(0, sessions, BATCH):
            with transaction.atomic():
                self._batch(
                    rng,
                    users,
                    min(BATCH, sessions - first),
                    now,
                    game,
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
                    game=game,
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
                    game=game,
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

    def _batch(self, rng, users, count, now, game, plays_sample, model, ratings, counters, periods) -> None:
        rules = GAMES[game]
        sizes = [size for size in seat_choices(rules) if size <= len(users)]
        options = rules.parse_options(None)
        tables = []
        for _ in range(count):
            seated = rng.sample(users, rng.choice(sizes))
            finished = now - timedelta(seconds=rng.randrange(365 * 24 * 3600))
            tables.append((seated, finished))
        sessions = GameSession.objects.bulk_create(
            [
                GameSession(
                    game=game,
                    options=asdict(options),
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
            match = rules.new_match(players=len(seated), options=options, rng=rng)
            deals_won = [0] * len(seated)
            for number in range(1, MAX_DEALS + 1):
                setup = rules.setup(match, rng)
                state = rules.start(setup)
                dealer = state.view(None).dealer
                actions = []
                while not state.is_over:
                    seat, action = state.to_act, _action(rules, state, rng)
                    actions.append((seat, action))
                    state = state.apply(action, seat=seat)
                outcome = state.outcome()
                winner = outcome.winners[0] if len(outcome.winners) == 1 else None
                if winner is not None and rules.counts_deals_won:
                    deals_won[winner] += 1
                deal = Deal(
                    session=session, number=number, dealer=dealer, setup=setup, winner=winner, finished=session.finished
                )
                deals.append(deal)
                plays.append((deal, actions if rng.random() < plays_sample else []))
                if not outcome.again:
                    match = match.settle(state)
                if match.finished:
                    break
            session.match = match.to_record()
            winners = match.winners
            table = [
                Seat(session=session, position=i, user=user, won=len(winners) == 1 and i in winners)
                for i, user in enumerate(seated)
            ]
            seats += table
            outcomes.append((session, table, seated, rules.ranking(match), deals_won))
        Seat.objects.bulk_create(seats, batch_size=BATCH)
        Deal.objects.bulk_create(deals, batch_size=BATCH)
        Play.objects.bulk_create(
            [
                Play(deal=deal, seq=i + 1, seat=seat, action=action)
                for deal, actions in plays
                for i, (seat, action) in enumerate(actions)
            ],
            batch_size=BATCH,
        )
        winners = []
        for session, table, seated, ranking, deals_won in outcomes:
            winner_seat = next((seat for seat in table if seat.won), None)
            session.winner = winner_seat
            winners.append(session)
            teams = [[model.rating(*ratings.get(user.pk, (25.0, 25.0 / 3)))] for user in seated]
            for user, seat, won_deals, (rating,) in zip(
                seated, table, deals_won, model.rate(teams, scores=list(ranking)), strict=True
            ):
                ratings[user.pk] = (rating.mu, rating.sigma)
                counter = counters.setdefault(user.pk, [0, 0, 0])
                counter[0] += 1
                counter[1] += seat is winner_seat
                counter[2] += won_deals
                seat.rating_after = rating.mu - 3 * rating.sigma
                for period, starts in period_starts(session.finished).items():
                    tally = periods.setdefault((user.pk, period, starts), [0, 0])
                    tally[0] += 1
                    tally[1] += seat is winner_seat
        GameSession.objects.bulk_update(winners, ["winner", "match"], batch_size=BATCH)
        Seat.objects.bulk_update(seats, ["rating_after"], batch_size=BATCH)


def _action(rules, state, rng: random.Random) -> str:
    """A card at random; a bid or call by the game's rule of thumb where it has one (random bids
    can keep a session from ever ending: in Auction Forty-Five they fail and scores only fall)."""
    legal = state.legal_actions()
    if rules.has_rule_of_thumb and not any(action in INDEX for action in legal):
        return rules.rule_of_thumb(state)
    return rng.choice(legal)
