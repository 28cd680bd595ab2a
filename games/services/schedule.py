"""What the site runs by itself, every few seconds (``tournaments_tick``, a task the task workers
queue while idle): the scheduled tournaments made ahead of time, tournaments started when their
time comes, arena players who waited long enough seated with computers, and arenas closed.

The schedule is ``FEMKORT_TOURNAMENT_SCHEDULE`` (JSON, a list of entries); each entry repeats
``every`` hour, day or week at its ``minute`` (and ``hour``, ``weekday`` 0 = Monday, UTC), with the
fields of a tournament: ``kind``, ``game``, ``minutes`` (an arena), ``rounds`` (Swiss), ``deals``,
``pace_seconds``, ``name``. Each occurrence is made once (its ``slot`` is unique), as soon as the
one before it has started, so the next one is always listed.
"""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError

from games.engine import GAMES
from games.models import Tournament

from .errors import TableError
from .seating import arena_close, arena_pair, fill_due, swiss_next, tournament_start
from .tournaments import arena_end, tournament_create, tournament_now

log = logging.getLogger(__name__)
PERIODS = {"hour": timedelta(hours=1), "day": timedelta(days=1), "week": timedelta(weeks=1)}


def default_schedule() -> list[dict[str, Any]]:
    """Without a schedule in the settings: 30-minute arenas every hour of the first three games
    listed (at :00, :20 and :40), and a weekly Swiss tournament of the first, turn-based."""
    games = [name for name, rules in GAMES.items() if rules.on_site]
    arenas = [
        {"kind": "arena", "game": game, "every": "hour", "minute": 20 * index, "minutes": 30}
        for index, game in enumerate(games[:3])
    ]
    swiss = {
        "kind": "swiss",
        "game": games[0],
        "every": "week",
        "weekday": 0,
        "hour": 18,
        "rounds": 5,
        "deals": 4,
        "pace_seconds": 24 * 3600,
    }
    return [*arenas, swiss]


def schedule() -> list[dict[str, Any]]:
    """The schedule's entries; one that is not an object is left out (and logged), as is a schedule
    that is not JSON: a mistake in the settings never stops the tournaments already made."""
    raw = settings.FEMKORT_TOURNAMENT_SCHEDULE
    if not raw:
        return default_schedule()
    try:
        entries = json.loads(raw)
    except ValueError as error:
        log.error("FEMKORT_TOURNAMENT_SCHEDULE is not JSON: %s", error)
        return []
    if not isinstance(entries, list):
        log.error("FEMKORT_TOURNAMENT_SCHEDULE is not a list")
        return []
    return [entry for entry in entries if isinstance(entry, dict)]


def next_time(entry: dict[str, Any], after: datetime) -> datetime:
    """The entry's first occurrence after ``after`` (one starting now is already made)."""
    every = entry.get("every", "hour")
    moment = after.astimezone(UTC).replace(second=0, microsecond=0)
    moment = moment.replace(minute=int(entry.get("minute", 0)))
    if every in ("day", "week"):
        moment = moment.replace(hour=int(entry.get("hour", 0)))
    if every == "week":
        moment -= timedelta(days=moment.weekday() - int(entry.get("weekday", 0)))
    while moment <= after:
        moment += PERIODS[every]
    return moment


def scheduled_make(now: datetime) -> list[int]:
    """Make each schedule entry's next occurrence, once; the tournaments made."""
    made = []
    for entry in schedule():
        try:
            starts = next_time(entry, now)
            slot = f"{entry['kind']}:{entry['game']}:{starts:%Y-%m-%dT%H:%M}"
        except (KeyError, TypeError, ValueError) as error:
            log.error("schedule entry %r is not understood: %r", entry, error)
            continue
        if Tournament.objects.filter(slot=slot).exists():
            continue
        try:
            tournament = tournament_create(
                user=None,
                kind=entry["kind"],
                game=entry["game"],
                starts=starts,
                minutes=int(entry.get("minutes", 0)),
                rounds=int(entry.get("rounds", 0)),
                deals=int(entry.get("deals", 0)),
                pace_seconds=int(entry.get("pace_seconds", 0)),
                name=entry.get("name", ""),
                slot=slot,
            )
        except IntegrityError:  # made at the same moment by another worker
            continue
        except (TableError, TypeError, ValueError) as error:
            log.error("schedule entry %r cannot be made: %s", entry, error)
            continue
        made.append(tournament.pk)
    return made


def tournaments_tick() -> str:
    """One look at every tournament the clock moves on (each step its own transaction; one that
    fails is logged and the others go on)."""
    now = tournament_now()
    made = scheduled_make(now)
    steps = [
        (tournament_start, pk)
        for pk in Tournament.objects.filter(status=Tournament.Status.UPCOMING, starts__lte=now).values_list(
            "pk", flat=True
        )
    ]
    for tournament in Tournament.objects.filter(status=Tournament.Status.RUNNING):
        if tournament.kind == Tournament.Kind.SWISS:
            steps.append((swiss_next, tournament.pk))  # a round whose last table ended but whose task was lost
        elif now >= arena_end(tournament):
            steps.append((arena_close, tournament.pk))
        elif fill_due(tournament):
            steps.append((arena_pair, tournament.pk))
    failed = 0
    for step, pk in steps:
        try:
            step(pk)
        except Exception:
            log.exception("tournament %s: %s failed", pk, step.__name__)
            failed += 1
    return f"made {len(made)}, {len(steps)} steps, {failed} failed"
