"""Time a duplicate board's results at scale: ``--results`` finished results on one board (a
"bench" event made for the run, its players made with unusable passwords, their values drawn from
a seeded generator in the game's range), then

- the results page (the whole page through Django's test client, logged in as one of the field):
  time and queries, and ``board_page`` alone;
- scoring one more result (``tally_add``): its queries on this field and on a field of one, the
  same number whatever the field's size (nothing is rescanned).

Median and 95th percentile over ``--repeat`` runs, after one to warm up (``bench_turns.timed``).
"""

from __future__ import annotations

import random
from datetime import timedelta

from django.core.management.base import BaseCommand
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from accounts.names import skeleton
from games.duplicate_pages import board_page
from games.engine import GAMES
from games.engine.fair import commitment, new_seed
from games.management.commands.bench_turns import MAX_QUERIES, TARGET_MS, page_for, page_timed, summary, timed
from games.models import Board, BoardResult, BoardTally, DuplicateEvent, GameSession, Seat
from games.services.duplicate import PLAYER_SEAT, tally_add

BATCH = 2000
VALUES = [float(value) for value in range(-6, 7)]  # a game's deal values lie in a few steps like these


class Command(BaseCommand):
    help = "Time a duplicate board's results page and scoring one more result, with many results."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--results", type=int, default=10_000)
        parser.add_argument("--repeat", type=int, default=30)
        parser.add_argument("--seed", type=int, default=1)

    def handle(self, *args, results: int, repeat: int, seed: int, **options) -> None:
        rng = random.Random(seed)
        board, viewer = self._field(results, rng)
        self.stdout.write(
            f"{connection.vendor}: board {board.pk} with {BoardResult.objects.filter(board=board).count()} results, "
            f"{BoardTally.objects.filter(board=board).count()} tally rows; {repeat} runs each "
            f"(target: median < {TARGET_MS} ms, at most {MAX_QUERIES} queries)"
        )
        page = page_for(viewer, reverse("event", args=[board.event_id]))
        self.stdout.write(f"results page          {page_timed(page, repeat)}")
        times, queries, _ = timed(lambda: board_page(board, viewer), repeat)
        self.stdout.write(f"  board_page() alone   {summary(times)}  {queries} queries")
        value = rng.choice(VALUES)
        with transaction.atomic():
            times, queries, _ = timed(lambda: tally_add(board.pk, PLAYER_SEAT, value), repeat)
            transaction.set_rollback(True)
        small = Board.objects.create(event=board.event, number=board.number + 1, seed="0" * 64, commitment="0" * 64)
        tally_add(small.pk, PLAYER_SEAT, value)
        with CaptureQueriesContext(connection) as alone:
            tally_add(small.pk, PLAYER_SEAT, value)
        small.delete()
        self.stdout.write(
            f"scoring one result    {summary(times)}  {queries} queries here, {len(alone)} on a field of one"
            f"  {'met' if queries == len(alone) else 'MISSED'}"
        )

    def _field(self, results: int, rng: random.Random) -> tuple[Board, User]:
        """The bench event's board with ``results`` results, made once and reused."""
        board = Board.objects.filter(
            event__name="bench", event__creator__username="bench-0", event__reveals__gt=timezone.now()
        ).first()
        if board is not None and BoardResult.objects.filter(board=board).count() >= results:
            return board, BoardResult.objects.filter(board=board).select_related("user").first().user
        game = next(iter(GAMES))
        now = timezone.now()
        users = User.objects.bulk_create(
            [
                User(username=f"bench-{i}", password="!", display_name_skeleton=skeleton(f"bench-{i}"))
                for i in range(results)
            ],
            batch_size=BATCH,
            ignore_conflicts=True,
        )
        users = list(User.objects.filter(username__startswith="bench-").order_by("pk")[:results])
        event = DuplicateEvent.objects.create(
            game=game,
            players=4,
            name="bench",
            creator=users[0],
            opens=now - timedelta(hours=12),
            closes=now + timedelta(hours=12),
            reveals=now + timedelta(hours=13),  # open: the page checks the viewer played it, as on the day
        )
        seed = new_seed()
        board = Board.objects.create(event=event, number=1, seed=seed.hex(), commitment=commitment(seed, "bench"))
        session = GameSession.objects.create(
            game=game, seat_count=4, host=users[0], status=GameSession.Status.FINISHED, event=event, unlisted=True
        )
        Seat.objects.create(session=session, position=PLAYER_SEAT, user=users[0])  # the viewer's own table
        values = [rng.choice(VALUES) for _ in users]
        BoardResult.objects.bulk_create(
            [
                BoardResult(board=board, user=user, seat=PLAYER_SEAT, session=session, value=value, finished=now)
                for user, value in zip(users, values, strict=True)
            ],
            batch_size=BATCH,
        )
        counts: dict[float, int] = {}
        for value in values:
            counts[value] = counts.get(value, 0) + 1
        BoardTally.objects.bulk_create(
            BoardTally(board=board, seat=PLAYER_SEAT, value=value, count=count) for value, count in counts.items()
        )
        return board, users[0]
