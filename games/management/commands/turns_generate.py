"""Generate turn-based tables in play, for benchmarks (``manage.py bench_turns``).

Each table has four people (no computers), a pace per move, its first deal dealt from a seeded
generator by its game (any registered game that four can play, chosen at random) and a few actions
already played and stored, and the turn recorded as a move would record it: ``to_act`` the seat
the deal says acts next, ``turn_since`` within the last pace, ``deadline`` and ``due`` one pace
later (spread over the coming hours and days; a share of them already passed, as a sweep would
find them), the next deal's seed drawn and committed to. A table opened from a generated row
plays on like any other; its first deal says it cannot be verified (like ``history_generate``'s).

One player (``--busy-player``, made if missing) sits at ``--busy-tables`` of them, a third of
those waiting on their move. The other players are made for the run (unusable passwords); nothing
is queued (no turn notices, no e-mails).
"""

from __future__ import annotations

import random
import time
from dataclasses import asdict
from datetime import datetime, timedelta

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import connection, transaction
from django.utils import timezone

from accounts.models import User
from accounts.names import skeleton
from games.engine import GAMES
from games.engine.fair import commitment, new_seed
from games.management.commands.history_generate import _action
from games.models import Deal, GameSession, Play, Seat, SeedDraw
from games.services.fair import deal_identity
from games.stored import seat_choices

BATCH = 1000
SEATS = 4
MAX_ACTIONS = 8  # actions already played in the first deal, at most
# Paces per move (seconds) and how often each is chosen: mostly a day.
PACE_WEIGHTS = {3600: 1, 8 * 3600: 2, 24 * 3600: 6, 3 * 24 * 3600: 2}
OVERDUE_WITHIN = timedelta(hours=6)  # an overdue table's deadline passed at most this long ago


def four_seat_games() -> list[str]:
    """The registered games that four people can play under their default options."""
    return [
        name
        for name, rules in GAMES.items()
        if SEATS in seat_choices(rules) and rules.table_problem(SEATS, rules.parse_options(None)) is None
    ]


class Command(BaseCommand):
    help = "Add turn-based tables in play (4 people each, a first deal and a few actions), one player at many."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--tables", type=int, default=10_000)
        parser.add_argument("--players", type=int, help="people to seat (default: one per 2.5 seats)")
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--busy-player", default="busy", help="username of the player at many tables")
        parser.add_argument("--busy-tables", type=int, default=50)
        parser.add_argument("--overdue", type=float, default=0.03, help="share of tables whose deadline passed")
        parser.add_argument("--game", choices=sorted(GAMES), help="one game only (default: a mix)")

    def handle(
        self,
        *args,
        tables: int,
        players: int | None,
        seed: int,
        busy_player: str,
        busy_tables: int,
        overdue: float,
        game: str | None,
        **options,
    ) -> None:
        games = [game] if game else four_seat_games()
        if not games or SEATS not in seat_choices(GAMES[games[0]]):
            raise CommandError("no registered game seats four")
        players = players if players is not None else max(SEATS, tables * SEATS * 2 // 5)
        if players < SEATS or not 0 <= busy_tables <= tables:
            raise CommandError("need at least 4 players, and --busy-tables between 0 and --tables")
        rng = random.Random(seed)
        started = time.perf_counter()
        busy = User.objects.filter(username=busy_player).first()
        if busy is None:
            busy = User.objects.create(username=busy_player, password="!")
        prefix = f"turn{seed}x{int(time.time())}"
        users = User.objects.bulk_create(
            [
                User(username=f"{prefix}-{i}", username_skeleton=skeleton(f"{prefix}-{i}"), password="!")
                for i in range(players)
            ],
            batch_size=BATCH,
        )
        # The busy player's tables, and which of them wait on their move (a third).
        busy_at = rng.sample(range(tables), busy_tables)
        waiting_on_busy = set(busy_at[: round(busy_tables / 3)])
        busy_at = set(busy_at)
        now = timezone.now()
        late = 0
        for first in range(0, tables, BATCH):
            plan = []
            for number in range(first, min(first + BATCH, tables)):
                role = ("mine" if number in waiting_on_busy else "other") if number in busy_at else None
                plan.append((rng.choice(games), role, rng.random() < overdue))
            with transaction.atomic():
                late += self._batch(rng, plan, users, busy, now)
            self.stdout.write(f"{first + len(plan)} tables", ending="\r")
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                # Fresh planner statistics and no dead rows (the commitments are written after the insert),
                # as autovacuum would leave a live site.
                # VACUUM cannot run in a transaction (a test's): there, fresh statistics alone.
                cursor.execute("ANALYZE" if connection.in_atomic_block else "VACUUM ANALYZE")
        elapsed = time.perf_counter() - started
        self.stdout.write(
            f"generated {tables} turn-based tables ({tables * SEATS} seats, {late} overdue) and {players} players "
            f"in {elapsed:.1f} s; {busy.username} sits at {busy_tables}, {len(waiting_on_busy)} waiting on them"
        )

    def _batch(self, rng: random.Random, plan: list, users: list[User], busy: User, now: datetime) -> int:
        """Insert one batch of tables; returns how many are overdue."""
        sessions, deals, seat_rows, play_rows = [], [], [], []
        late = 0
        for game, role, overdue in plan:
            rules = GAMES[game]
            options = rules.parse_options(None)
            match = rules.new_match(players=SEATS, options=options, rng=rng)
            setup = rules.setup(match, rng)
            state = rules.start(setup)
            dealer = state.view(None).dealer
            actions = []
            for _ in range(rng.randrange(MAX_ACTIONS + 1)):
                seat, action = state.to_act, _action(rules, state, rng)
                after = state.apply(action, seat=seat)
                if after.is_over or after.to_act is None:
                    break  # the deal stays in play
                actions.append((seat, action))
                state = after
            to_act = state.to_act
            pace = rng.choices(list(PACE_WEIGHTS), weights=list(PACE_WEIGHTS.values()))[0]
            per_move = timedelta(seconds=pace * settings.FEMKORT_PACE_FACTOR)
            if overdue:
                late += 1
                deadline = now - min(per_move, OVERDUE_WITHIN) * rng.random()
                turn_since = deadline - per_move
            else:
                turn_since = now - per_move * rng.random()
                deadline = turn_since + per_move
            opened = turn_since - per_move * len(actions) * rng.random()
            seated = self._people(rng, users, busy, role, to_act)
            session = GameSession(
                game=game,
                options=asdict(options),
                seat_count=SEATS,
                status=GameSession.Status.PLAYING,
                host=seated[0],
                seq=SEATS + len(actions),  # the three who sat down, the start, and each action
                match=match.to_record(),
                pace_seconds=pace,
                to_act=to_act,
                turn_since=turn_since,
                deadline=deadline,
                due=deadline,
                started=opened,
                active=opened,
            )
            sessions.append(session)
            deal = Deal(session=session, number=1, dealer=dealer, setup=setup)
            deals.append(deal)
            play_rows += [
                Play(deal=deal, seq=i + 1, seat=seat, action=action) for i, (seat, action) in enumerate(actions)
            ]
            movers = {seat for seat, _ in actions}
            seat_rows += [
                Seat(
                    session=session,
                    position=position,
                    user=user,
                    seen=turn_since if position in movers else opened,
                )
                for position, user in enumerate(seated)
            ]
        GameSession.objects.bulk_create(sessions)
        draws = []
        for session in sessions:
            seed = new_seed()
            session.next_commitment = commitment(seed, deal_identity(session.pk, 2))
            draws.append(SeedDraw(session=session, number=2, seed=seed.hex(), commitment=session.next_commitment))
        GameSession.objects.bulk_update(sessions, ["next_commitment"])
        SeedDraw.objects.bulk_create(draws)
        Seat.objects.bulk_create(seat_rows)
        Deal.objects.bulk_create(deals)
        Play.objects.bulk_create(play_rows)
        return late

    @staticmethod
    def _people(rng: random.Random, users: list[User], busy: User, role: str | None, to_act: int) -> list[User]:
        """Four people in seat order: the busy player at the seat to act (``mine``), at another seat
        (``other``), or not at all."""
        if role is None:
            return rng.sample(users, SEATS)
        seated = rng.sample(users, SEATS - 1)
        position = to_act if role == "mine" else rng.choice([p for p in range(SEATS) if p != to_act])
        seated.insert(position, busy)
        return seated
