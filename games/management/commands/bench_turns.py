"""Time the reads of turn-based play at scale, on a database holding ``turns_generate``'s tables:

- My tables for the busy player (the whole page through Django's test client, logged in): time
  and queries, and the page's own reads alone (``my_tables``) without the request around them;
- the header's count of tables waiting on them (``waiting_count``);
- the deadline sweep's query (``overdue_tables``, run by every server process every second):
  time, queries, and on PostgreSQL its plan, with whether it reads an index or the whole table.

Median and 95th percentile over ``--repeat`` runs each, after one to warm up; ``--explain`` also
prints the plan of every query My tables makes (PostgreSQL).
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

from django.core.management.base import BaseCommand, CommandError
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games.live.drivers import OVERDUE_GRACE
from games.models import GameSession, Seat
from games.my_tables import my_tables, waiting_count
from games.selectors import overdue_tables

TARGET_MS = 50
MAX_QUERIES = 10


def timed(call: Callable[[], object], repeat: int) -> tuple[list[float], int, object]:
    """Seconds of each of ``repeat`` calls (after one to warm up), the queries of the last, and its result."""
    call()
    times = []
    for _ in range(repeat):
        with CaptureQueriesContext(connection) as queries:
            started = time.perf_counter()
            result = call()
            times.append(time.perf_counter() - started)
    return times, len(queries), result


def summary(times: list[float]) -> str:
    p95 = statistics.quantiles(times, n=20, method="inclusive")[18] if len(times) > 1 else times[0]
    median, slowest = statistics.median(times), max(times)
    return f"median {median * 1000:6.2f} ms  p95 {p95 * 1000:6.2f} ms  max {slowest * 1000:6.2f} ms"


def page_for(user: User, url: str, status: int = 200) -> Callable[[], object]:
    """The whole page at ``url`` through Django's test client, logged in as ``user``; it must answer ``status``."""
    client = Client(HTTP_HOST="localhost")
    client.force_login(user)

    def page() -> object:
        response = client.get(url)
        assert response.status_code == status, response.status_code
        return response

    return page


def page_timed(page: Callable[[], object], repeat: int) -> str:
    """A page's line: its times, its queries and whether it met the target (the login's 2 not counted)."""
    times, queries, _ = timed(page, repeat)
    return f"{summary(times)}  {queries} queries (2 of them the login's)  {verdict(times, queries - 2, MAX_QUERIES)}"


def verdict(times: list[float], queries: int, max_queries: int) -> str:
    met = statistics.median(times) * 1000 < TARGET_MS and queries <= max_queries
    return "met" if met else "MISSED"


class Command(BaseCommand):
    help = "Time My tables, the header's count and the deadline sweep on turns_generate's tables."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--player", default="busy", help="the player at many tables (turns_generate's)")
        parser.add_argument("--repeat", type=int, default=50)
        parser.add_argument("--explain", action="store_true", help="print the plan of each query My tables makes")

    def handle(self, *args, player: str, repeat: int, explain: bool, **options) -> None:
        user = User.objects.filter(username=player).first()
        if user is None:
            raise CommandError(f"no player {player!r}: run turns_generate first")
        playing = GameSession.objects.filter(status=GameSession.Status.PLAYING, pace_seconds__gt=0).count()
        self.stdout.write(
            f"{connection.vendor}, {GameSession.objects.count()} sessions ({playing} turn-based in play), "
            f"{Seat.objects.count()} seats; {player} sits at {Seat.objects.filter(user=user).count()} tables, "
            f"{waiting_count(user.pk)} waiting on them; {repeat} runs each (target: median < {TARGET_MS} ms)"
        )
        page = page_for(user, reverse("my_tables"))
        self.stdout.write(f"My tables page        {page_timed(page, repeat)}")
        times, queries, tables = timed(lambda: my_tables(user.pk), repeat)
        rows = len(tables.waiting_on_me) + len(tables.waiting_on_others) + len(tables.finished)
        self.stdout.write(f"  my_tables() alone    {summary(times)}  {queries} queries, {rows} rows")
        times, queries, _ = timed(lambda: waiting_count(user.pk), repeat)
        self.stdout.write(f"header waiting_count  {summary(times)}  {queries} query")
        before = timezone.now() - OVERDUE_GRACE
        times, queries, due = timed(lambda: overdue_tables(before), repeat)
        self.stdout.write(
            f"sweep overdue_tables  {summary(times)}  {queries} query, {len(due)} tables found"
            f"  {verdict(times, queries, 1)}"
        )
        if connection.vendor != "postgresql":
            self.stdout.write("(query plans: on PostgreSQL only)")
            return
        with CaptureQueriesContext(connection) as sweep:
            overdue_tables(before)
        plan = self._plan(sweep.captured_queries[0]["sql"])
        indexed = "Seq Scan" not in plan and "Index" in plan
        self.stdout.write(f"sweep plan ({'indexed' if indexed else 'NOT indexed: reads the whole table'}):")
        self.stdout.write("\n".join(f"    {line}" for line in plan.splitlines()))
        if explain:
            with CaptureQueriesContext(connection) as reads:
                page()
            for query in reads.captured_queries:
                self.stdout.write(f"\n{query['sql'][:300]}")
                self.stdout.write("\n".join(f"    {line}" for line in self._plan(query["sql"]).splitlines()))

    @staticmethod
    def _plan(sql: str) -> str:
        with connection.cursor() as cursor:
            cursor.execute(f"EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY ON) {sql}")
            return "\n".join(row[0] for row in cursor.fetchall())
