"""Tournaments: arenas and Swiss events. Opening one, entering, pausing and withdrawing, and scoring
each finished table once, in the transaction that ends it. Seating (the arena's passes, Swiss
rounds) is in ``seating``; what the site runs by itself (the schedule, starts, ends) in ``schedule``.

**Scoring a table.** Each player's *share* is the part of the table's other players (or other
sides, in a partnership game) they finished ahead of, a tie counting half: 1 for first place
alone, 0 for last. Computers are players like any other: beating one counts. A player who left the
table (a computer played their seat to its end) scores 0, and an arena pauses them.

- *Swiss*: a round scores the share (1, ½, 0 at a table of two sides); a bye scores 1.
- *Arena*: a table scores twice the share (2 for a win), doubled while on a streak: after two
  wins in a row, each further win counts 4, until a table is not won.

**Final order**: points, then the sum of the opponents' points (every opponent met, once per
table), then tables won, then who entered first (``games.pairing.tie_breaks``).
"""

from __future__ import annotations

import contextlib
import secrets
from dataclasses import asdict
from datetime import datetime, timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from games import tasks
from games.engine import GAMES, InvalidDeal, Match, get_game
from games.models import PACES, GameSession, Seat, Tournament, TournamentEntry, TournamentResult
from games.pairing import tie_breaks
from games.stored import seat_choices, sides_of, usual_seats

from .duplicate import duplicate_now, percents_of, round_reveal
from .errors import TableError
from .locks import named_lock

ARENA_MINUTES = (10, 30, 60, 120)
SCHEDULED_MINUTES = 24 * 60  # the schedule may give an arena any length up to a day
SWISS_ROUNDS = range(2, 10)
TABLE_DEALS = range(0, 13)  # 0: a whole session
STARTS_IN = (0, 5 * 60, 15 * 60, 3600, 24 * 3600)  # seconds from now a player-made tournament starts
OPEN_PER_CREATOR = 3
BYE_SHARE = 1.0
DUPLICATE_BYE_SHARE = 0.5  # a duplicate round scores a mean percentage: a bye is an average round
STREAK_FROM = 2  # wins in a row after which a win counts double
COMPUTER_LEVEL = "strong"
LIVE = (GameSession.Status.WAITING, GameSession.Status.PLAYING)


def tournament_now() -> datetime:
    """The tournaments' clock: the events' clock (``FEMKORT_CLOCK_SHIFT_SECONDS`` moves both)."""
    return duplicate_now()


def arena_end(tournament: Tournament) -> datetime:
    return tournament.starts + timedelta(minutes=tournament.minutes)


def arena_grace() -> timedelta:
    """How long after an arena's end its tables still in play may finish and count."""
    return timedelta(seconds=settings.FEMKORT_ARENA_GRACE_SECONDS)


@transaction.atomic
def tournament_create(
    *,
    user: User | None,
    kind: str,
    game: str,
    starts: datetime,
    minutes: int = 0,
    rounds: int = 0,
    deals: int = 0,
    pace_seconds: int = 0,
    players: int | None = None,
    options: dict | None = None,
    name: str = "",
    unlisted: bool = False,
    slot: str | None = None,
    duplicate: bool = False,
) -> Tournament:
    """A tournament; ``user`` None: the site's schedule (``slot`` names its place, made once). A
    player has at most ``OPEN_PER_CREATOR`` not yet finished (counted under their row lock)."""
    rules = GAMES.get(game)
    if rules is None or not rules.on_site:
        raise TableError(_("Unknown game."))
    if kind == Tournament.Kind.ARENA:
        if minutes not in ARENA_MINUTES and (user is not None or not 1 <= minutes <= SCHEDULED_MINUTES):
            raise TableError(_("Unknown length for an arena."), code="minutes")
        if pace_seconds:
            raise TableError(_("An arena is played live."), code="pace")
        rounds = 0
    elif kind == Tournament.Kind.SWISS:
        if rounds not in SWISS_ROUNDS:
            raise TableError(
                _("A Swiss tournament has %(low)d to %(high)d rounds.")
                % {"low": SWISS_ROUNDS[0], "high": SWISS_ROUNDS[-1]},
                code="rounds",
            )
        minutes = 0
    else:
        raise TableError(_("Unknown kind of tournament."), code="kind")
    if deals not in TABLE_DEALS:
        raise TableError(_("A table plays a whole session or 1 to 12 deals."), code="deals")
    if duplicate and (kind != Tournament.Kind.SWISS or not deals):
        raise TableError(
            _("A duplicate tournament is a Swiss one of a few deals at each table, the same at every table."),
            code="duplicate",
        )
    if pace_seconds not in dict(PACES):
        raise TableError(_("Unknown pace."), code="pace")
    players = players or usual_seats(rules)
    if players not in seat_choices(rules):
        raise TableError(_("This game is not played at that many seats."), code="players")
    try:
        parsed = rules.parse_options(options or {})
    except InvalidDeal as error:
        raise TableError(str(error)) from None
    problem = rules.table_problem(players, parsed)
    if problem is not None:
        raise TableError(_(problem), code="options")
    if user is not None:
        User.objects.select_for_update().filter(pk=user.pk).first()
        mine = Tournament.objects.filter(creator=user).exclude(status=Tournament.Status.FINISHED)
        if mine.count() >= OPEN_PER_CREATOR:
            raise TableError(
                _("You already have %(count)d tournaments not yet finished.") % {"count": OPEN_PER_CREATOR},
                code="too_many_tournaments",
            )
    tournament = Tournament.objects.create(
        kind=kind,
        game=game,
        options=asdict(parsed),
        players=players,
        name=name.strip()[:60],
        creator=user,
        slot=slot,
        unlisted=unlisted,
        code=tournament_code() if unlisted else None,
        starts=starts,
        minutes=minutes,
        rounds=rounds,
        deals=deals,
        pace_seconds=pace_seconds,
        duplicate=duplicate,
    )
    if user is not None:
        _entry_add(tournament, user)
    return tournament


def tournament_code() -> str:
    from .tables import CODE_LENGTH, CODE_LETTERS

    while True:
        code = "".join(secrets.choice(CODE_LETTERS) for _ in range(CODE_LENGTH))
        if not Tournament.objects.filter(code=code).exists():
            return code


def locked_tournament(tournament_id: int) -> Tournament:
    """The tournament, with its lock held to the transaction's end: entering, pausing, seating and
    its rounds and end take it. An advisory lock, not the row's: a table ending updates the row's
    version without waiting for a pairing pass, and never takes this lock (no table's lock is ever
    taken after it, nor it after a table's)."""
    named_lock(f"tournament-{tournament_id}")
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        raise TableError(_("No such tournament."), code="not_found")
    return tournament


def _entry_add(tournament: Tournament, user: User) -> TournamentEntry:
    free = tournament_now() if tournament.kind == Tournament.Kind.ARENA else None
    entry = TournamentEntry.objects.create(tournament=tournament, user=user, free_since=free)
    changed(tournament)
    return entry


def changed(tournament: Tournament) -> None:
    """The standings changed: pages polling them fetch them again."""
    Tournament.objects.filter(pk=tournament.pk).update(version=F("version") + 1)


@transaction.atomic
def tournament_join(*, user: User, tournament_id: int) -> TournamentEntry:
    """Enter (or come back to) a tournament: an arena until its end, a Swiss one before its second
    round. Under the tournament's row lock, so an entry and a pairing never cross."""
    tournament = locked_tournament(tournament_id)
    entry = TournamentEntry.objects.filter(tournament=tournament, user=user).first()
    if tournament.status == Tournament.Status.FINISHED:
        raise TableError(_("This tournament is over."), code="finished")
    if tournament.kind == Tournament.Kind.ARENA and tournament_now() >= arena_end(tournament):
        raise TableError(_("This arena has ended: no new tables."), code="ended")
    if tournament.kind == Tournament.Kind.SWISS and tournament.round >= 2:
        raise TableError(_("Players may join a Swiss tournament only before its second round."), code="late")
    if entry is None:
        entry = _entry_add(tournament, user)
    elif entry.withdrawn:
        raise TableError(_("You withdrew from this tournament."), code="withdrawn")
    elif entry.paused:
        return tournament_pause(user=user, tournament_id=tournament_id, paused=False)
    if tournament.kind == Tournament.Kind.ARENA and tournament.status == Tournament.Status.RUNNING:
        tasks.arena_pair.enqueue(tournament.pk)
    return entry


@transaction.atomic
def tournament_pause(*, user: User, tournament_id: int, paused: bool) -> TournamentEntry:
    """An arena player stops being seated (the table in play is played out) or comes back."""
    tournament = locked_tournament(tournament_id)
    entry = _entry_of(tournament, user)
    if tournament.kind != Tournament.Kind.ARENA:
        raise TableError(_("Only an arena can be paused; a Swiss tournament can be withdrawn from."), code="kind")
    if tournament.status == Tournament.Status.FINISHED:
        raise TableError(_("This tournament is over."), code="finished")
    if entry.withdrawn:
        raise TableError(_("You withdrew from this tournament."), code="withdrawn")
    entry.paused = paused
    # A pause is not time spent waiting for a table: whoever comes back waits from now.
    entry.free_since = None if paused or _seated(tournament, user) else tournament_now()
    entry.save(update_fields=["paused", "free_since"])
    changed(tournament)
    if not paused and tournament.status == Tournament.Status.RUNNING:
        tasks.arena_pair.enqueue(tournament.pk)
    return entry


def tournament_withdraw(*, user: User, tournament_id: int) -> TournamentEntry:
    """Leave a tournament for good: no further table or round; a table in play is left as any
    table is (a computer plays the seat to its end, and it scores nothing). The tables are left
    after the withdrawal commits, each in its own transaction: a table's lock is always taken
    before its players' entries (as when a table ends), never after."""
    from .turns import session_leave

    with transaction.atomic():
        tournament = locked_tournament(tournament_id)
        entry = _entry_of(tournament, user)
        if tournament.status == Tournament.Status.FINISHED:
            raise TableError(_("This tournament is over."), code="finished")
        entry.withdrawn = True
        entry.free_since = None
        entry.save(update_fields=["withdrawn", "free_since"])
        changed(tournament)
        playing = list(
            tournament.sessions.filter(
                status=GameSession.Status.PLAYING, seats__user=user, seats__left=False
            ).values_list("pk", flat=True)
        )
    for session_id in playing:
        with contextlib.suppress(TableError):  # it ended meanwhile
            session_leave(session_id=session_id, user=user)
    return entry


def _entry_of(tournament: Tournament, user: User) -> TournamentEntry:
    entry = TournamentEntry.objects.filter(tournament=tournament, user=user).first()
    if entry is None:
        raise TableError(_("You have not entered this tournament."), code="not_entered")
    return entry


def _seated(tournament: Tournament, user: User) -> bool:
    return tournament.sessions.filter(status__in=LIVE, seats__user=user, seats__left=False).exists()


# -- a table's result -------------------------------------------------------------------------------


def shares(session: GameSession, seats: list[Seat], match: Match | None) -> dict[int, float]:
    """Each seat's share of the table outplaced (sides in a partnership game), as the module says."""
    if match is None:
        return dict.fromkeys((seat.position for seat in seats), 0.0)
    ranking = get_game(session.game).ranking(match)
    sides = sides_of(session, len(seats))
    value = [max(ranking[seat] for seat in side) for side in sides]
    found: dict[int, float] = {}
    for side, mine in zip(sides, value, strict=True):
        beaten = sum(other < mine for other in value)
        tied = sum(other == mine for other in value) - 1
        for seat in side:
            found[seat] = (beaten + tied / 2) / max(1, len(sides) - 1)
    return found


def table_over(session: GameSession, seats: list[Seat], match: Match | None) -> None:
    """Score a tournament table that just ended (finished, or abandoned: ``match`` None scores 0),
    in the transaction that ends it; the result rows' constraint keeps each one once. It locks only
    its players' entries (in order), so it never waits for a pairing pass. A duplicate round's table
    is scored with the whole round, by matchpoints, when its last table ends (``round_scored``)."""
    tournament = Tournament.objects.get(pk=session.tournament_id)
    if tournament.duplicate:
        tasks.swiss_next.enqueue(tournament.pk)
        return
    found = shares(session, seats, match)
    arena = tournament.kind == Tournament.Kind.ARENA
    entries = {
        entry.user_id: entry
        for entry in TournamentEntry.objects.select_for_update()
        .filter(tournament=tournament, user__in=[seat.user_id for seat in seats if seat.user_id])
        .order_by("pk")
    }
    now = tournament_now()
    open_to_pair = arena and now < arena_end(tournament)
    for seat in seats:
        entry = entries.get(seat.user_id)
        if entry is None:
            continue
        left = seat.left
        share = 0.0 if left else found[seat.position]
        won = share == 1.0  # first alone (or the winning side), whoever played the seat's last cards
        streaking = entry.streak >= STREAK_FROM
        points = (2 * share * (2 if streaking and won else 1)) if arena else share
        try:
            with transaction.atomic():
                TournamentResult.objects.create(
                    tournament=tournament,
                    user_id=seat.user_id,
                    session=session,
                    round=session.tournament_round or 0,
                    share=share,
                    points=points,
                    won=won,
                )
        except IntegrityError:
            continue  # already scored (a task run twice): nothing is counted again
        entry.points += points
        entry.sessions += 1
        entry.wins += int(won)
        entry.streak = entry.streak + 1 if won else 0
        if arena:
            entry.paused = entry.paused or left or match is None  # away from an abandoned table: paused
            entry.free_since = now if open_to_pair and not entry.paused and not entry.withdrawn else None
        entry.save(update_fields=["points", "sessions", "wins", "streak", "paused", "free_since"])
    changed(tournament)
    if arena:
        if open_to_pair:
            tasks.arena_pair.enqueue(tournament.pk)
        elif not tournament.sessions.filter(status__in=LIVE).exclude(pk=session.pk).exists():
            tasks.tournament_finish.enqueue(tournament.pk)
    else:
        tasks.swiss_next.enqueue(tournament.pk)


def round_scored(tournament: Tournament) -> None:
    """A duplicate round is over: each of its players scores their mean matchpoint percentage over
    the round's deals (as a share, 0 to 1; a deal left unfinished counts 0), and the round's deals
    reveal (the caller holds the tournament's lock)."""
    event = tournament.round_event
    if event is None:
        return
    percents = percents_of(event)
    tables = {
        user_id: session_id
        for session_id, user_id in Seat.objects.filter(
            session__tournament=tournament, session__tournament_round=tournament.round, user__isnull=False
        ).values_list("session_id", "user_id")
    }
    best = max((sum(found) / len(found) for found in percents.values() if found), default=None)
    for entry in TournamentEntry.objects.select_for_update().filter(tournament=tournament, user__in=list(tables)):
        found = percents.get(entry.user_id, [])
        mean = sum(found) / tournament.deals if found else 0.0
        share = round(mean / 100, 4)
        won = best is not None and found and sum(found) / len(found) == best
        try:
            with transaction.atomic():
                TournamentResult.objects.create(
                    tournament=tournament,
                    user_id=entry.user_id,
                    session_id=tables[entry.user_id],
                    round=tournament.round,
                    share=share,
                    points=share,
                    won=bool(won),
                )
        except IntegrityError:
            continue  # scored already
        entry.points += share
        entry.sessions += 1
        entry.wins += int(bool(won))
        entry.save(update_fields=["points", "sessions", "wins"])
    round_reveal(event)
    changed(tournament)


def last_deal(session: GameSession, number: int) -> bool:
    """A tournament of a few deals a table: the table has dealt its last."""
    deals = Tournament.objects.filter(pk=session.tournament_id).values_list("deals", flat=True).first()
    return bool(deals) and number >= deals


def table_abandoned(session: GameSession) -> None:
    """A tournament table ended unfinished (everyone away, or the arena's grace ran out): it scores
    nothing, and its players are free again."""
    if session.tournament_id is not None:
        table_over(session, list(session.seats.all()), None)


def opponents_met(tournament: Tournament) -> list[tuple[int, int]]:
    """Every pair of entrants scored at one table on different sides (a partner is no opponent),
    once per table: what the tie-break sums, as two-player "tables"."""
    scored = set(
        TournamentResult.objects.filter(tournament=tournament, session__isnull=False).values_list(
            "session_id", "user_id"
        )
    )
    seats: dict[int, list[tuple[int, int]]] = {}
    for session_id, user_id, position in Seat.objects.filter(
        session__tournament=tournament, user__isnull=False
    ).values_list("session_id", "user_id", "position"):
        if (session_id, user_id) in scored:
            seats.setdefault(session_id, []).append((user_id, position))
    pairs = []
    for session in tournament.sessions.filter(pk__in=list(seats)):
        side = {seat: index for index, members in enumerate(sides_of(session, session.seat_count)) for seat in members}
        players = seats[session.pk]
        for index, (one, mine) in enumerate(players):
            for other, theirs in players[index + 1 :]:
                if side.get(mine) != side.get(theirs):
                    pairs.append((one, other))
    return pairs


def finish(tournament: Tournament) -> None:
    """Fix the final order and places (the caller holds the tournament's row lock)."""
    entries = list(tournament.entries.order_by("joined", "id"))
    scores = {entry.user_id: entry.points for entry in entries}
    met = opponents_met(tournament)
    wins = {entry.user_id: entry.wins for entry in entries}
    order = tie_breaks(scores, met, wins)
    opponents = dict.fromkeys(scores, 0.0)
    for one, other in met:
        opponents[one] = opponents.get(one, 0.0) + scores.get(other, 0.0)
        opponents[other] = opponents.get(other, 0.0) + scores.get(one, 0.0)
    by_user = {entry.user_id: entry for entry in entries}
    for place, user_id in enumerate(order, start=1):
        entry = by_user[user_id]
        entry.place = place
        entry.opponents = opponents[user_id]
        entry.free_since = None
    TournamentEntry.objects.bulk_update(entries, ["place", "opponents", "free_since"])
    tournament.status = Tournament.Status.FINISHED
    tournament.ended = timezone.now()
    tournament.save(update_fields=["status", "ended"])
    changed(tournament)
