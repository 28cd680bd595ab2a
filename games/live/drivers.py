"""Computer players act on their own, server-side, after a pause so people can follow; and
people's turns are looked at when their clock runs out or they may have gone away.

The database says when the server must act at a table (``GameSession.due``). The process
that made the move before schedules it at once, without a query; a sweep in every process
takes up turns that are overdue (the process that should have played them died, Redis was
down, or the table was left over a restart) and keeps the server's beat, by which turn
clocks are pushed back after a restart (``services.clocks_keep``). Decisions run in a worker process, so one
table's strong player never holds up the others; the row lock and the sequence number
make sure no turn is ever played twice, whichever process gets there first.
"""

from __future__ import annotations

import asyncio
import logging
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from datetime import datetime, timedelta

from django.conf import settings
from django.utils import timezone

from femkort_site.processes import command_beside, exiting, worker_pool
from games import services, snapshots
from games.bots import decide
from games.engine.game import View
from games.selectors import computer_view, overdue_tables
from games.threads import db

from .cancelling import honour_cancel

log = logging.getLogger(__name__)
OVERDUE_GRACE = timedelta(seconds=2)
BEAT_SECONDS = 5
EXPIRE_SECONDS = 60
_turns: dict[int, tuple[int, asyncio.Task]] = {}
_sweeper: asyncio.Task | None = None
_workers: ProcessPoolExecutor | None = None
_task_workers_started = False


def schedule(session_id: int, seq: int, due: datetime | None) -> None:
    """Have this process play the computer's turn at ``session_id`` when it is due (if still at ``seq``)."""
    if due is None:
        return
    loop = asyncio.get_running_loop()
    pending = _turns.get(session_id)
    current = asyncio.current_task()
    if (
        pending is not None
        and pending[0] >= seq
        and not pending[1].done()
        and pending[1] is not current
        and pending[1].get_loop() is loop
    ):
        return
    delay = max(0.0, (due - timezone.now()).total_seconds())
    _turns[session_id] = (seq, loop.create_task(_turn(session_id, seq, delay)))


def ensure_started() -> None:
    """Start this process's task workers (once) and its sweep for overdue turns (once per event loop)."""
    global _sweeper, _task_workers_started
    if not _task_workers_started:
        _task_workers_started = True
        # From the event loop's thread, which lives as long as the server: they die with it.
        for _ in range(settings.FEMKORT_TASK_WORKERS):
            command_beside(["tasks_worker", "--nice", str(settings.FEMKORT_TASK_NICE)])
        for _ in range(settings.FEMKORT_TOURNAMENT_WORKERS):  # pairing never waits behind a long review
            command_beside(["tasks_worker", "--queue", "tournaments", "--interval", "0.25"])
    if settings.FEMKORT_SWEEP_SECONDS <= 0:
        return
    loop = asyncio.get_running_loop()
    if _sweeper is None or _sweeper.done() or _sweeper.get_loop() is not loop:
        _sweeper = loop.create_task(_sweep(settings.FEMKORT_SWEEP_SECONDS))


async def _turn(session_id: int, seq: int, delay: float) -> None:
    try:
        await asyncio.sleep(delay)
        snapshot = await snapshots.at_least(session_id, seq)
        if snapshot is None or snapshot.seq != seq:
            return  # someone else played it, or the table moved on
        decision = computer_view(snapshot)
        if decision is None:  # a person's turn: has their clock run out, or have they gone?
            session = await db(services.turn_check)(session_id=session_id, seen_seq=seq)
        else:
            card = await choose(*decision)
            session = await db(services.computer_turn)(session_id=session_id, seen_seq=seq, card=card)
        if session is not None:
            schedule(session_id, session.seq, session.due)
    except Exception:
        log.exception("computer turn at table %s (seq %s) failed", session_id, seq)
    finally:
        pending = _turns.get(session_id)
        if pending is not None and pending[1] is asyncio.current_task():
            del _turns[session_id]


def expire_every() -> float:
    """How often idle waiting tables are looked for: once a minute, or a quarter of the time they
    may wait if that is shorter, so a table closes at most a quarter of its wait late."""
    return min(EXPIRE_SECONDS, settings.FEMKORT_WAITING_EXPIRE_SECONDS / 4)


async def _sweep(every: float) -> None:
    beat = expired = 0.0
    while True:
        honour_cancel()
        try:
            if time.monotonic() - beat >= BEAT_SECONDS:
                await db(services.clocks_keep)()
                beat = time.monotonic()
        except Exception as error:
            log.warning("server beat failed: %r", error)
        try:
            if time.monotonic() - expired >= expire_every():
                await db(services.tables_expire)()
                expired = time.monotonic()
        except Exception as error:
            log.warning("closing idle waiting tables failed: %r", error)
        await asyncio.sleep(every)
        try:
            for session_id, seq, due in await db(overdue_tables)(timezone.now() - OVERDUE_GRACE):
                schedule(session_id, seq, due)
        except Exception as error:  # the database is away: try again at the next sweep
            log.warning("sweep for overdue computer turns failed: %r", error)


async def choose(kind: str, view: View, beginner_partner: bool = False) -> str:
    """The computer's card, decided in a worker process (or a thread if there are no workers)."""
    global _workers
    loop = asyncio.get_running_loop()
    if settings.FEMKORT_COMPUTER_WORKERS <= 0:
        return await loop.run_in_executor(None, decide, kind, view, None, beginner_partner)
    if _workers is None:  # started from the event loop's thread, which lives as long as the server
        _workers = worker_pool(settings.FEMKORT_COMPUTER_WORKERS)
    try:
        return await loop.run_in_executor(_workers, decide, kind, view, None, beginner_partner)
    except BrokenProcessPool:
        if exiting():  # the server is going: so is this turn (a sweep plays it later)
            raise asyncio.CancelledError from None
        log.warning("computer worker process died; starting another")
        _workers = None
        return await loop.run_in_executor(None, decide, kind, view, None, beginner_partner)
