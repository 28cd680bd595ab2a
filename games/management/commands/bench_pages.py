"""Time the history pages server-side: median time and query count per page."""

from __future__ import annotations

import statistics
import time

from django.core.management.base import BaseCommand
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.models import Deal, GameSession, Play, Standing


class Command(BaseCommand):
    help = "Request the leaderboard, profile and session pages and print time and queries for each."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--repeat", type=int, default=20)

    def handle(self, *args, repeat: int, **options) -> None:
        busiest = Standing.objects.filter(user__isnull=False).order_by("-sessions_played").select_related("user")
        player = busiest.first()
        session = GameSession.objects.filter(status=GameSession.Status.FINISHED).order_by("-finished").first()
        if player is None or session is None:
            self.stderr.write("no history: run history_generate first")
            return
        # A deal whose actions were kept, to replay (generated history keeps a sample of them).
        deal = Deal.objects.filter(pk__in=Play.objects.values("deal")).order_by("-pk").first() or session.deals.first()
        pages = {
            "leaderboard, sessions won, all time": reverse("leaderboard"),
            "leaderboard, rating": reverse("leaderboard") + "?board=rating&min=5",
            "leaderboard, this month": reverse("leaderboard") + "?period=month",
            "leaderboard, this week": reverse("leaderboard") + "?period=week",
            "profile (busiest player)": reverse("player", args=[player.user.username]),
            "profile, page 3": reverse("player", args=[player.user.username]) + "?page=3",
            "session page": reverse("session", args=[session.pk]),
            "deal replay": reverse("deal_replay", args=[deal.pk]) + "?step=7",
        }
        client = Client(HTTP_HOST="localhost")
        sessions = GameSession.objects.count()
        self.stdout.write(
            f"{connection.vendor}, {sessions} sessions, busiest player: {player.sessions_played} sessions"
        )
        for name, url in pages.items():
            client.get(url)  # warm caches
            times = []
            for _ in range(repeat):
                with CaptureQueriesContext(connection) as queries:
                    started = time.perf_counter()
                    response = client.get(url)
                    times.append(time.perf_counter() - started)
                assert response.status_code == 200, (url, response.status_code)
            self.stdout.write(
                f"{name:38} median {statistics.median(times) * 1000:6.1f} ms  max {max(times) * 1000:6.1f} ms"
                f"  {len(queries)} queries"
            )
