"""Compute the queued reviews of finished deals here and now (the task workers do it in the
background): a session's reviews for a test or a look, or a backfill of old sessions."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from games import services
from games.models import DealReview


class Command(BaseCommand):
    help = "Compute queued deal reviews now, oldest first; --backfill queues sessions finished before reviews existed."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--session", type=int, default=None, help="only this session's deals")
        parser.add_argument("--backfill", action="store_true", help="only queue every finished session's deals")

    def handle(self, *args, session: int | None, backfill: bool, **options) -> None:
        if backfill:
            self.stdout.write(f"queued {services.reviews_backfill()} reviews")
            return
        done = services.reviews_run(session)
        left = DealReview.objects.filter(status=DealReview.Status.QUEUED).count()
        self.stdout.write(f"computed {done} reviews; {left} still queued")
