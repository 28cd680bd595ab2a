"""Run at server start: tables left waiting on a computer player's turn (a restart) move on,
and sessions that do not yet say whose turn it is get their turn clock and absence checks."""

from django.core.management.base import BaseCommand

from games import services
from games.models import GameSession


class Command(BaseCommand):
    help = "Play the pending turns of computer players at every table in play."

    def handle(self, *args, **options) -> None:
        tables = moves = restored = 0
        for session_id in GameSession.objects.filter(status=GameSession.Status.PLAYING).values_list("pk", flat=True):
            restored += services.turn_restore(session_id=session_id)
            played = services.computers_play_all(session_id=session_id)
            tables += bool(played)
            moves += played
        self.stdout.write(f"computer players resumed at {tables} tables ({moves} cards); {restored} turns restored")
