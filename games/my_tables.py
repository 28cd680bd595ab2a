"""Reads for "My tables": every table a player sits at, those waiting on them first, and the header's
count of turn-based tables waiting on them. A few queries whatever the number of tables."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from django.db.models import F, Q

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


# What the page reads of a row: its table, the seat's result, and whose turn it is (nothing else, so
# 50 tables cost a few milliseconds, not the whole of every session, seat and player).
SEAT_FIELDS = ["session_id", "position", "user_id", "computer", "stand_in", "won"]
SESSION_FIELDS = ["game", "status", "pace_seconds", "to_act", "deadline", "finished"]
USER_FIELDS = ["username", "display_name"]


def my_tables(user_id: int) -> MyTables:
    """Tables waiting on the player (soonest deadline first), then those waiting on someone else or
    for players, then the latest finished ones. Three queries: the open tables, the seats whose turn
    it is there (with their person's name), the finished tables."""
    mine_with_table = Seat.objects.select_related("session").only(
        *SEAT_FIELDS, *(f"session__{field}" for field in SESSION_FIELDS)
    )
    open_seats = list(mine_with_table.filter(user_id=user_id, session__status__in=OPEN))
    in_play = [seat.session_id for seat in open_seats if seat.session.status == GameSession.Status.PLAYING]
    to_act = {}
    if in_play:
        turns = (
            Seat.objects.filter(session_id__in=in_play, session__to_act=F("position"))
            .select_related("user")
            .only(*SEAT_FIELDS, *(f"user__{field}" for field in USER_FIELDS))
        )
        to_act = {seat.session_id: seat for seat in turns}
    finished_seats = mine_with_table.filter(user_id=user_id, session__status=GameSession.Status.FINISHED).order_by(
        "-session__finished"
    )[:FINISHED_SHOWN]
    mine, others = [], []
    for seat in open_seats:
        row = _row(seat, to_act.get(seat.session_id))
        (mine if row.mine else others).append(row)
    mine.sort(key=lambda row: row.deadline or NO_DEADLINE)
    others.sort(key=lambda row: (row.session.status != GameSession.Status.PLAYING, -row.session.pk))
    return MyTables(mine, others, [_row(seat, None) for seat in finished_seats])


def _row(seat: Seat, to_act: Seat | None) -> MyTable:
    """``to_act``: the seat whose turn it is, if the table is in play."""
    session = seat.session
    playing = session.status == GameSession.Status.PLAYING
    mine = playing and to_act is not None and to_act.pk == seat.pk and not seat.played_by
    return MyTable(session=session, seat=seat, mine=mine, to_act=to_act if playing else None, deadline=session.deadline)
