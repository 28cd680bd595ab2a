"""Reads for "My tables": every table a player sits at, those waiting on them first, and the header's
count of turn-based tables waiting on them. A few queries whatever the number of tables."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from django.db.models import F, Prefetch, Q

from .models import GameSession, Seat

FINISHED_SHOWN = 20
OPEN = [GameSession.Status.WAITING, GameSession.Status.PLAYING]
NO_DEADLINE = datetime.max.replace(tzinfo=UTC)  # a live table waiting on you, after those with a deadline


@dataclass(frozen=True)
class MyTable:
    session: GameSession
    seat: Seat
    mine: bool  # waiting on this player's move
    to_act: Seat | None
    deadline: datetime | None

    @property
    def turn_based(self) -> bool:
        return self.session.turn_based


@dataclass(frozen=True)
class MyTables:
    waiting_on_me: list[MyTable]
    waiting_on_others: list[MyTable]
    finished: list[MyTable]


def _waiting_on(user_id: int) -> Q:
    return Q(
        user_id=user_id,
        stand_in="",
        session__status=GameSession.Status.PLAYING,
        session__pace_seconds__gt=0,
        session__to_act=F("position"),
    )


def waiting_count(user_id: int) -> int:
    """Turn-based tables in play whose turn is this player's (the header's count)."""
    return Seat.objects.filter(_waiting_on(user_id)).count()


def my_tables(user_id: int) -> MyTables:
    """Tables waiting on the player (soonest deadline first), then those waiting on someone else or
    for players, then the latest finished ones."""
    seats_with_names = Prefetch("session__seats", queryset=Seat.objects.select_related("user"))
    open_seats = (
        Seat.objects.filter(
            user_id=user_id, session__status__in=[GameSession.Status.WAITING, GameSession.Status.PLAYING]
        )
        .select_related("session")
        .prefetch_related(seats_with_names)
    )
    finished_seats = (
        Seat.objects.filter(user_id=user_id, session__status=GameSession.Status.FINISHED)
        .select_related("session")
        .prefetch_related(seats_with_names)
        .order_by("-session__finished")[:FINISHED_SHOWN]
    )
    mine, others = [], []
    for seat in open_seats:
        row = _row(seat)
        (mine if row.mine else others).append(row)
    mine.sort(key=lambda row: row.deadline or NO_DEADLINE)
    others.sort(key=lambda row: (row.session.status != GameSession.Status.PLAYING, -row.session.pk))
    return MyTables(mine, others, [_row(seat) for seat in finished_seats])


def _row(seat: Seat) -> MyTable:
    session = seat.session
    seats = list(session.seats.all())
    to_act = next((s for s in seats if s.position == session.to_act), None)
    playing = session.status == GameSession.Status.PLAYING
    mine = playing and to_act is not None and to_act.pk == seat.pk and not seat.played_by
    return MyTable(session=session, seat=seat, mine=mine, to_act=to_act if playing else None, deadline=session.deadline)
