"""Play now: one click from the lobby to a table of a game, someone else's if one has a seat free,
else a new one with computers in the other seats, started at once."""

from __future__ import annotations

from django.db import transaction
from django.db.models import Count, Q
from django.utils.translation import gettext as _

from accounts.models import User
from games.engine import GAMES
from games.models import Block, GameSession, Seat
from games.selectors import idle_waiting, waiting_cutoff
from games.stored import usual_seats

from .errors import TableError
from .seats import computer_add, seat_take
from .tables import session_start, table_create

PLAY_NOW_CLOCKS = (0, 30, 60)  # a quick join never lands anyone on a fast clock they did not choose
PLAY_NOW_LEVEL = "medium"


@transaction.atomic
def play_now(*, user: User, game: str, contribution: str = "") -> GameSession:
    """The table ``user`` plays ``game`` at now: one they already sit at, else the fullest open
    table with a free seat, else a new one with computers, started.

    One transaction under the player's row lock: clicks at once of one player find the table the
    first one chose, and a new table is seen by nobody else until it is full and started."""
    rules = GAMES.get(game)
    if rules is None or not rules.on_site:
        raise TableError(_("Unknown game."))
    User.objects.select_for_update().filter(pk=user.pk).first()
    mine = Seat.objects.filter(
        user=user,
        left=False,
        session__game=game,
        session__status__in=(GameSession.Status.WAITING, GameSession.Status.PLAYING),
    ).order_by("-session__active")
    if (seat := mine.select_related("session").first()) is not None:
        return seat.session
    for session in _open_tables(game, user):
        try:
            return seat_take(session_id=session.pk, user=user)  # a savepoint: a refusal undoes only this try
        except TableError:
            continue  # filled or started a moment ago: the next one
    seats = usual_seats(rules)
    session = table_create(host=user, seats=seats, game=game, options={})
    for position in range(1, seats):
        computer_add(session_id=session.pk, user=user, position=position, level=PLAY_NOW_LEVEL)
    return session_start(session_id=session.pk, user=user, contribution=contribution)


def _open_tables(game: str, user: User):
    """Waiting tables of ``game`` with a free seat, fullest first, then the most recently active."""
    free = Q(seats__user__isnull=True, seats__computer="", seats__invited__isnull=True)
    taken = Q(seats__user__isnull=False) | ~Q(seats__computer="")
    return (
        GameSession.objects.filter(
            status=GameSession.Status.WAITING,
            game=game,
            turn_seconds__in=PLAY_NOW_CLOCKS,
            pace_seconds=0,  # a quick game is a live one: never a table played over days
            unlisted=False,
        )
        .exclude(pk__in=idle_waiting(waiting_cutoff()).values("pk"))
        .exclude(seats__user=user)
        .exclude(seats__user__in=Block.objects.filter(user=user).values("blocked"))  # nobody you blocked
        .exclude(seats__user__in=Block.objects.filter(blocked=user).values("user"))  # nor anyone who blocked you
        .annotate(free=Count("seats", filter=free, distinct=True), taken=Count("seats", filter=taken, distinct=True))
        .filter(free__gt=0)
        .order_by("-taken", "-active", "-pk")[:10]
    )
