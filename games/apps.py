from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"

    def ready(self) -> None:
        from .live.logins import watch_logins

        watch_logins()  # open sockets follow their player's logout, password change or deactivation
