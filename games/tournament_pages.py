"""What tournament pages read: the lists, an event's standings and tables in play, a player's own
table there, the standings' export and a player's tournaments on their profile. Reads only."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import Q

from .models import GameSession, Seat, Tournament, TournamentEntry
from .services.tournaments import LIVE, arena_end, tournament_now


@dataclass(frozen=True)
class Standing:
    place: int
    username: str
    name: str
    points: float
    sessions: int
    wins: int
    streak: int
    opponents: float | None  # the tie-break, once it is over
    paused: bool
    withdrawn: bool
    mine: bool


def standings(tournament: Tournament, viewer: Any, limit: int | None = None) -> list[Standing]:
    """Ordered as they stand: final places once over; before, points then tables won (one query)."""
    entries = TournamentEntry.objects.filter(tournament=tournament).select_related("user")
    if tournament.status == Tournament.Status.FINISHED:
        entries = entries.order_by("place", "id")
    else:
        entries = entries.order_by("-points", "-wins", "joined", "id")
    over = tournament.status == Tournament.Status.FINISHED
    viewer_id = getattr(viewer, "pk", None)
    rows = entries[:limit] if limit else entries
    return [
        Standing(
            place=entry.place if over and entry.place else index,
            username=entry.user.username,
            name=entry.user.name,
            points=entry.points,
            sessions=entry.sessions,
            wins=entry.wins,
            streak=entry.streak,
            opponents=entry.opponents if over else None,
            paused=entry.paused,
            withdrawn=entry.withdrawn,
            mine=entry.user_id == viewer_id,
        )
        for index, entry in enumerate(rows, start=1)
    ]


@dataclass(frozen=True)
class TableInPlay:
    session_id: int
    round: int | None
    players: list[str]
    computers: int


def tables_in_play(tournament: Tournament) -> list[TableInPlay]:
    """Its tables in play, to watch (two queries, whatever their number)."""
    sessions = list(tournament.sessions.filter(status__in=LIVE).order_by("pk").values_list("pk", "tournament_round"))
    seats: dict[int, list[Seat]] = {}
    for seat in Seat.objects.filter(session__in=[pk for pk, _ in sessions]).select_related("user").order_by("position"):
        seats.setdefault(seat.session_id, []).append(seat)
    return [
        TableInPlay(
            session_id=pk,
            round=number,
            players=[seat.user.name for seat in seats.get(pk, []) if seat.user_id],
            computers=sum(1 for seat in seats.get(pk, []) if seat.computer),
        )
        for pk, number in sessions
    ]


def my_table(tournament: Tournament, viewer: Any) -> GameSession | None:
    """The viewer's table in play at this tournament, if any."""
    if not getattr(viewer, "is_authenticated", False):
        return None
    return tournament.sessions.filter(status__in=LIVE, seats__user=viewer, seats__left=False).order_by("-pk").first()


def listed(now: datetime | None = None) -> dict[str, list[Tournament]]:
    """The public tournaments: upcoming, running and lately finished."""
    public = Tournament.objects.filter(unlisted=False)
    return {
        "running": list(public.filter(status=Tournament.Status.RUNNING).order_by("starts")[:50]),
        "upcoming": list(public.filter(status=Tournament.Status.UPCOMING).order_by("starts")[:50]),
        "finished": list(public.filter(status=Tournament.Status.FINISHED).order_by("-ended")[:20]),
    }


def ends_at(tournament: Tournament) -> datetime | None:
    return arena_end(tournament) if tournament.kind == Tournament.Kind.ARENA else None


def export(tournament: Tournament) -> dict[str, Any]:
    """The standings as data: every player with points, tables, wins and (once over) place and tie-break."""
    return {
        "tournament": tournament.pk,
        "name": str(tournament),
        "kind": tournament.kind,
        "game": tournament.game,
        "status": tournament.status,
        "starts": tournament.starts.isoformat(),
        "rounds": tournament.rounds,
        "minutes": tournament.minutes,
        "standings": [
            {
                "place": row.place,
                "player": row.username,
                "points": row.points,
                "tables": row.sessions,
                "wins": row.wins,
                "opponents_points": row.opponents,
                "withdrawn": row.withdrawn,
            }
            for row in standings(tournament, None)
        ],
    }


@dataclass(frozen=True)
class Played:
    tournament: Tournament
    place: int | None
    points: float
    players: int


def tournaments_played(player: Any, viewer: Any, count: int = 5) -> list[Played]:
    """The player's last tournaments with their place: private ones only for the player and staff,
    and those the viewer entered too."""
    entries = TournamentEntry.objects.filter(user=player).select_related("tournament").order_by("-joined")
    own = getattr(viewer, "pk", None) == player.pk or getattr(viewer, "is_staff", False)
    if not own:
        shared = Q(tournament__entries__user_id=getattr(viewer, "pk", None))
        entries = entries.filter(Q(tournament__unlisted=False) | shared).distinct()
    rows = []
    for entry in entries[:count]:
        rows.append(Played(entry.tournament, entry.place, entry.points, entry.tournament.entries.count()))
    return rows


def status_now(tournament: Tournament) -> str:
    """What the page says of its time: starts in, ends in, or over."""
    now = tournament_now()
    if tournament.status == Tournament.Status.UPCOMING:
        return "upcoming"
    if tournament.kind == Tournament.Kind.ARENA and now >= arena_end(tournament):
        return "closing" if tournament.status == Tournament.Status.RUNNING else "finished"
    return tournament.status
