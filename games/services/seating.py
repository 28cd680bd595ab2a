"""Seating a tournament's tables: an arena's pairing passes and a Swiss tournament's rounds, both
by the rules of ``games.pairing``. A pass holds the tournament's row lock and seats every table it
makes in its one transaction: nobody is seated twice, and no table is left half made. Each seated
player's open pages are told at once ("your table is ready").
"""

from __future__ import annotations

import contextlib
import secrets
from collections.abc import Sequence
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from accounts.models import User
from games import announcements, tasks
from games.models import GameSession, Seat, Tournament, TournamentEntry, TournamentResult
from games.pairing import Entrant, Meetings, Waiting, arena_tables, swiss_round

from . import fair
from .duplicate import round_deals
from .errors import TableError
from .locks import named_lock
from .tournaments import (
    BYE_SHARE,
    COMPUTER_LEVEL,
    DUPLICATE_BYE_SHARE,
    LIVE,
    arena_end,
    arena_grace,
    changed,
    finish,
    locked_tournament,
    round_scored,
    tournament_now,
)

# A pass seats at most this many tables (about 15 ms each on PostgreSQL), so it holds the arena's lock briefly
# however many are free at once (an arena's start): the next pass, queued at once, seats the rest.
TABLES_PER_PASS = 4
LIVE_TURN_SECONDS = 60
# Seating reads who is busy at another tournament's live table, then seats: one pass at a time,
# whatever the tournament, so nobody is seated at two live tables by passes of two arenas at once.
SEATING = "tournament-seating"  # a live tournament table's turn clock: an absent player never holds up the rest


def table_seat(tournament: Tournament, user_ids: Sequence[int], round_number: int | None = None) -> GameSession:
    """A started table of ``tournament`` for these players in a random order, its other seats for
    strong computers. A duplicate round's table deals the round's deals (``round_event``), the same
    at every table, and its computers decide as at every other table."""
    from .tables import session_start

    players = list(user_ids)
    secrets.SystemRandom().shuffle(players)
    host = User.objects.get(pk=players[0])
    session = GameSession.objects.create(
        game=tournament.game,
        options=tournament.options,
        seat_count=tournament.players,
        host=host,
        turn_seconds=0 if tournament.pace_seconds else LIVE_TURN_SECONDS,
        pace_seconds=tournament.pace_seconds,
        unlisted=tournament.unlisted,
        tournament=tournament,
        tournament_round=round_number,
        event=tournament.round_event if tournament.duplicate else None,
        active=timezone.now(),
    )
    Seat.objects.bulk_create(
        Seat(
            session=session,
            position=position,
            user_id=players[position] if position < len(players) else None,
            computer="" if position < len(players) else COMPUTER_LEVEL,
        )
        for position in range(tournament.players)
    )
    if session.event_id is None:  # a duplicate round's deals are committed to by its boards
        fair.seed_draw(session, 1)
        session.save(update_fields=["next_commitment"])
    session_start(session_id=session.pk, user=host)
    if tournament.kind == Tournament.Kind.SWISS and not tournament.pace_seconds:
        # A live round seats its players whatever else they play: their arenas seat them no more.
        TournamentEntry.objects.filter(
            user__in=players, tournament__kind=Tournament.Kind.ARENA, tournament__status=Tournament.Status.RUNNING
        ).update(paused=True, free_since=None)
    for user_id in players:
        announcements.table_ready(user_id, session.pk)
    return session


def _busy_elsewhere(user_ids: Sequence[int]) -> set[int]:
    """Players at a live tournament table already (one arena table at a time, whichever arena)."""
    return set(
        Seat.objects.filter(
            user__in=user_ids,
            left=False,
            session__status__in=LIVE,
            session__tournament__isnull=False,
            session__pace_seconds=0,
        ).values_list("user_id", flat=True)
    )


@transaction.atomic
def arena_pair(tournament_id: int) -> list[int]:
    """One pairing pass of a running arena over its free players (``TABLES_PER_PASS`` tables at most,
    the best placed first); the tables it seated."""
    tournament = locked_tournament(tournament_id)
    now = tournament_now()
    if tournament.status != Tournament.Status.RUNNING or now >= arena_end(tournament):
        return []
    named_lock(SEATING)
    free = list(
        TournamentEntry.objects.filter(
            tournament=tournament, free_since__isnull=False, paused=False, withdrawn=False
        ).only("user_id", "points", "free_since")
    )
    busy = _busy_elsewhere([entry.user_id for entry in free])
    waiting = [
        Waiting(entry.user_id, entry.points, (now - entry.free_since).total_seconds())
        for entry in free
        if entry.user_id not in busy
    ]
    passed = arena_tables(waiting, tournament.players, settings.FEMKORT_ARENA_FILL_SECONDS)
    seated: list[int] = []
    tables = [*passed.tables, *([passed.with_computers] if passed.with_computers else [])]
    if len(tables) > TABLES_PER_PASS:  # the best-placed tables now, the rest by the next pass, at once
        tables = tables[:TABLES_PER_PASS]
        tasks.arena_pair.enqueue(tournament_id)
    for table in tables:
        seated.append(table_seat(tournament, table).pk)
    placed = [user_id for table in tables for user_id in table]
    if placed:
        TournamentEntry.objects.filter(tournament=tournament, user__in=placed).update(free_since=None)
        changed(tournament)  # open pages fetch the tables in play, and each seated player's own
    return seated


@transaction.atomic
def swiss_next(tournament_id: int) -> str:
    """A Swiss tournament moves on once its round's tables are all over: the next round, or the end."""
    tournament = locked_tournament(tournament_id)
    if tournament.kind != Tournament.Kind.SWISS or tournament.status != Tournament.Status.RUNNING:
        return "not running"
    if tournament.sessions.filter(tournament_round=tournament.round, status__in=LIVE).exists():
        return f"round {tournament.round} in play"
    if tournament.duplicate and tournament.round:
        round_scored(tournament)
    if tournament.round >= tournament.rounds:
        finish(tournament)
        return "finished"
    return swiss_round_begin(tournament)


def swiss_round_begin(tournament: Tournament) -> str:
    """Seat the next round (the caller holds the tournament's row lock). Players who do not fill a
    table sit out with a bye; fewer players than one table play one table with computers."""
    named_lock(SEATING)
    entries = list(tournament.entries.filter(withdrawn=False).order_by("-points", "joined", "id"))
    if len(entries) < 2:
        finish(tournament)
        return "too few players"
    met = Meetings()
    tables: dict[int, list[int]] = {}
    for session_id, user_id in TournamentResult.objects.filter(
        tournament=tournament, session__isnull=False
    ).values_list("session_id", "user_id"):
        tables.setdefault(session_id, []).append(user_id)
    for table in tables.values():
        met.add_table(table)
    tournament.round += 1
    if tournament.duplicate:  # the round's deals: the same at every table
        tournament.round_event = round_deals(
            game=tournament.game,
            options=tournament.options,
            players=tournament.players,
            deal_count=tournament.deals,
            name=f"{tournament} · {tournament.round}",
        )
    tournament.save(update_fields=["round", "round_event"])
    changed(tournament)
    if len(entries) < tournament.players:
        table_seat(tournament, [entry.user_id for entry in entries], tournament.round)
        return f"round {tournament.round}: one table with computers"
    planned = swiss_round(
        [Entrant(entry.user_id, entry.points, entry.byes) for entry in entries], tournament.players, met
    )
    for table in planned.tables:
        table_seat(tournament, table, tournament.round)
    for entry in entries:
        if entry.user_id in planned.byes:
            bye = DUPLICATE_BYE_SHARE if tournament.duplicate else BYE_SHARE
            TournamentResult.objects.create(
                tournament=tournament, user_id=entry.user_id, round=tournament.round, share=bye, points=bye, bye=True
            )
            entry.points += bye
            entry.byes += 1
            entry.save(update_fields=["points", "byes"])
    return f"round {tournament.round}: {len(planned.tables)} tables, {len(planned.byes)} byes"


@transaction.atomic
def tournament_start(tournament_id: int) -> str:
    """An upcoming tournament whose time has come starts: an arena seats its first tables, a Swiss
    tournament its first round."""
    tournament = locked_tournament(tournament_id)
    if tournament.status != Tournament.Status.UPCOMING:
        return "already started"
    if tournament_now() < tournament.starts:
        return "not yet"
    tournament.status = Tournament.Status.RUNNING
    tournament.save(update_fields=["status"])
    changed(tournament)
    if tournament.kind == Tournament.Kind.ARENA:
        TournamentEntry.objects.filter(tournament=tournament, free_since__isnull=False).update(
            free_since=tournament.starts
        )
        seated = arena_pair(tournament_id)
        return f"arena open: {len(seated)} tables"
    return swiss_round_begin(tournament)


def arena_close(tournament_id: int) -> str:
    """An arena past its end seats nobody; its tables still in play after the grace time end unscored,
    and once none is left in play the arena is over. Each table ends in its own transaction (its
    lock, then its players' entries, as when a table ends by itself), the arena's end in another."""
    from .tables import session_abandon

    with transaction.atomic():
        tournament = locked_tournament(tournament_id)
        if tournament.kind != Tournament.Kind.ARENA or tournament.status != Tournament.Status.RUNNING:
            return "not running"
        now = tournament_now()
        if now < arena_end(tournament):
            return "not yet"
        tournament.entries.filter(free_since__isnull=False).update(free_since=None)
        live = list(tournament.sessions.filter(status__in=LIVE).values_list("pk", flat=True))
        if live and now < arena_end(tournament) + arena_grace():
            return f"{len(live)} tables finishing"
    for session_id in live:
        with contextlib.suppress(TableError):  # it ended meanwhile
            session_abandon(session_id=session_id)
    return tournament_finish(tournament_id)


@transaction.atomic
def tournament_finish(tournament_id: int) -> str:
    """A tournament whose last table is over ends (an arena past its end, a Swiss one after its last round)."""
    tournament = locked_tournament(tournament_id)
    if tournament.status != Tournament.Status.RUNNING:
        return "not running"
    if tournament.sessions.filter(status__in=LIVE).exists():
        return "tables in play"
    if tournament.kind == Tournament.Kind.ARENA and tournament_now() < arena_end(tournament):
        return "not yet"
    finish(tournament)
    return "finished"


def fill_due(tournament: Tournament) -> bool:
    """An arena has a player who has waited long enough for computers to fill their table."""
    cutoff = tournament_now() - timedelta(seconds=settings.FEMKORT_ARENA_FILL_SECONDS)
    return tournament.entries.filter(free_since__lte=cutoff, paused=False, withdrawn=False).exists()
