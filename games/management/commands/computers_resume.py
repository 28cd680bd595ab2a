"""Run at server start: tables left waiting on a computer player's turn (a restart) move on."""

from django.core.management.base import BaseCommand

from games import services
from games.models import GameSession


class Command(BaseCommand):
    help = "Play the pending turns of computer players at every table in play."

    def handle(self, *args, **options) -> None:
        tables = moves = 0
        for session_id in GameSession.objects.filter(status=GameSession.Status.PLAYING).values_list("pk", flat=True):
            played = services.computers_play_all(session_id=session_id)
            tables += bool(played)
            moves += played
        self.stdout.write(f"computer players resumed at {tables} tables ({moves} cards)")
