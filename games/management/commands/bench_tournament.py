"""Time a big arena: ``--players`` entrants (made for the run, with unusable passwords) in a running
arena of the first game at tables of four, then

- a pairing pass over every one of them free at once (the arena's start: the pass seats the
  best-placed ``TABLES_PER_PASS`` tables, the next passes the rest) and over 4 free players while
  the others sit at busy tables (a table just finished), each run in a transaction rolled back, so
  each pass seats the same players;
- the arena's page with every player and table listed, and the standings' poll (changed, and
  unchanged: 204), through Django's test client as one of the players.

Median and 95th percentile over ``--repeat`` runs, after one to warm up (``bench_turns``' timer).
"""

from __future__ import annotations

import statistics
import time
from datetime import timedelta

from django.core.management.base import BaseCommand
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from accounts.names import skeleton
from games.engine import GAMES
from games.management.commands.bench_turns import page_for, page_timed, summary
from games.models import GameSession, Tournament, TournamentEntry
from games.services import seating

TARGET_PASS_MS = 100


class Command(BaseCommand):
    help = "Time an arena's pairing passes and its page with many players."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--players", type=int, default=200)
        parser.add_argument("--repeat", type=int, default=10)

    def handle(self, *args, players: int, repeat: int, **options) -> None:
        """Everything in one transaction rolled back at the end: the bench's players and arena are
        never seen by the site's clock or pages."""
        with transaction.atomic():
            self._measure(players, repeat)
            transaction.set_rollback(True)

    def _measure(self, players: int, repeat: int) -> None:
        users = self._players(players)
        arena = self._arena(users)
        self.stdout.write(
            f"{connection.vendor}: arena {arena.pk}, {players} players at tables of 4; {repeat} runs each"
        )
        times, queries = self._passes(arena, repeat)
        tables = min(players // 4, seating.TABLES_PER_PASS)
        self.stdout.write(
            f"pass, {players} free ({tables} tables seated)  {summary(times)}  {queries} queries  {_verdict(times)}"
        )
        while seating.arena_pair(arena.pk):  # everyone seated: the busy arena
            pass
        freed = list(TournamentEntry.objects.filter(tournament=arena).values_list("user_id", flat=True)[:4])
        GameSession.objects.filter(tournament=arena, seats__user__in=freed).update(status=GameSession.Status.FINISHED)
        TournamentEntry.objects.filter(tournament=arena, user__in=freed).update(free_since=timezone.now())
        busy = GameSession.objects.filter(tournament=arena, status=GameSession.Status.PLAYING).count()
        times, queries = self._passes(arena, repeat)
        self.stdout.write(f"pass, 4 free, {busy} tables busy  {summary(times)}  {queries} queries  {_verdict(times)}")
        viewer = users[-1]
        page = page_for(viewer, reverse("tournament", args=[arena.pk]))
        self.stdout.write(f"arena page ({players} players, {busy} tables listed)  {page_timed(page, repeat)}")
        standings = page_for(viewer, reverse("tournament_standings", args=[arena.pk]))
        self.stdout.write(f"standings poll, changed   {page_timed(standings, repeat)}")
        arena.refresh_from_db()
        unchanged = page_for(viewer, f"{reverse('tournament_standings', args=[arena.pk])}?v={arena.version}", 204)
        self.stdout.write(f"standings poll, unchanged {page_timed(unchanged, repeat)}")

    def _passes(self, arena: Tournament, repeat: int) -> tuple[list[float], int]:
        """Each pass in a savepoint rolled back: the same free players every time (one run to warm up)."""
        times, queries = [], 0
        for run in range(repeat + 1):
            connection.queries_log.clear()
            with transaction.atomic(), CaptureQueriesContext(connection) as captured:
                started = time.perf_counter()
                seating.arena_pair(arena.pk)
                elapsed = time.perf_counter() - started
                transaction.set_rollback(True)
            if run:
                times.append(elapsed)
                queries = len(captured)
        return times, queries

    def _players(self, count: int) -> list[User]:
        User.objects.bulk_create(
            [
                User(username=f"arena-bench-{i}", password="!", display_name_skeleton=skeleton(f"arena-bench-{i}"))
                for i in range(count)
            ],
            ignore_conflicts=True,
        )
        return list(User.objects.filter(username__startswith="arena-bench-").order_by("pk")[:count])

    def _arena(self, users: list[User]) -> Tournament:
        now = timezone.now()
        arena = Tournament.objects.create(
            kind=Tournament.Kind.ARENA,
            game=next(iter(GAMES)),
            players=4,
            name="arena bench",
            starts=now - timedelta(minutes=1),
            minutes=60,
            status=Tournament.Status.RUNNING,
        )
        TournamentEntry.objects.bulk_create(
            TournamentEntry(tournament=arena, user=user, free_since=now, points=float(i % 9))
            for i, user in enumerate(users)
        )
        return arena


def _verdict(times: list[float]) -> str:
    return f"{'met' if statistics.median(times) * 1000 < TARGET_PASS_MS else 'MISSED'} (median < {TARGET_PASS_MS} ms)"
