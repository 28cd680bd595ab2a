"""Compute the queued reviews of finished deals here (the live servers do it in the background).
SIGTERM or Ctrl-C stops it at once; the review under way goes back to the queue."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from femkort_site.processes import Stop
from games import services
from games.models import DealReview


class Command(BaseCommand):
    help = "Compute queued deal reviews, oldest first; --backfill queues sessions finished before reviews existed."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--limit", type=int, default=None, help="stop after this many reviews")
        parser.add_argument("--session", type=int, default=None, help="only this session's deals")
        parser.add_argument("--backfill", action="store_true", help="first queue every finished session's deals")

    def handle(self, *args, limit: int | None, session: int | None, backfill: bool, **options) -> None:
        with Stop() as stop:
            if backfill:
                self.stdout.write(f"queued {services.reviews_backfill()} reviews")
            done = services.reviews_run(limit, session, stop=stop)
        left = DealReview.objects.filter(status=DealReview.Status.QUEUED).count()
        stopped = "stopped; " if stop.requested else ""
        self.stdout.write(f"{stopped}computed {done} reviews; {left} still queued")
