from django.utils.translation import gettext as _

from games.models import GameSession

from .errors import TableError


def locked_session(session_id: int) -> GameSession:
    """The session row, locked until the transaction ends: one change at a time per table."""
    session = GameSession.objects.select_for_update().filter(pk=session_id).first()
    if session is None:
        raise TableError(_("No such table."), code="not_found")
    return session
