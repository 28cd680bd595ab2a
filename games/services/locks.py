from django.db import connection
from django.utils.translation import gettext as _

from games.models import GameSession

from .errors import TableError


def locked_session(session_id: int) -> GameSession:
    """The session row, locked until the transaction ends: one change at a time per table."""
    session = GameSession.objects.select_for_update().filter(pk=session_id).first()
    if session is None:
        raise TableError(_("No such table."), code="not_found")
    return session


def named_lock(name: str) -> None:
    """Hold ``name`` until the transaction ends, for a count-then-insert with no row to lock.

    PostgreSQL: an advisory lock. SQLite runs one writing transaction at a time anyway (the
    site's transactions begin IMMEDIATE), so there is nothing more to take.
    """
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))", [name])
