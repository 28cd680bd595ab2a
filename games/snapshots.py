"""Each process reads a table once per change and every viewer there renders from that one read.

A sequence number names exactly one state of a table (every change bumps it under the row
lock), so a snapshot at ``seq`` stays true for as long as the table is at ``seq``: there is
nothing to invalidate, only newer snapshots to keep. The process that made a change stores
the new snapshot itself once the change commits; others read it from the database when the
broadcast arrives, one read per table however many sockets wait for it.
"""

from __future__ import annotations

import asyncio
import threading
from collections import OrderedDict

from games.selectors import TableSnapshot, online_users, table_snapshot, table_snapshot_after
from games.threads import db

KEEP_TABLES = 2000
_lock = threading.Lock()
_latest: OrderedDict[int, TableSnapshot] = OrderedDict()
_online: dict[int, frozenset[int]] = {}
_reads: dict[int, asyncio.Future[TableSnapshot | None]] = {}


def forget_all() -> None:
    """Only for a database that went back in time (tests that roll back, a restored backup)."""
    with _lock:
        _latest.clear()
        _online.clear()


def peek(session_id: int) -> TableSnapshot | None:
    with _lock:
        return _latest.get(session_id)


def keep(snapshot: TableSnapshot) -> None:
    """Remember ``snapshot`` unless a newer one of the same table is already known."""
    session_id = snapshot.session.pk
    with _lock:
        known = _latest.get(session_id)
        if known is not None and known.seq >= snapshot.seq:
            return
        _latest[session_id] = snapshot
        _latest.move_to_end(session_id)
        _online.setdefault(session_id, snapshot.online)
        while len(_latest) > KEEP_TABLES:
            dropped, _ = _latest.popitem(last=False)
            _online.pop(dropped, None)


def online(session_id: int) -> frozenset[int]:
    with _lock:
        return _online.get(session_id, frozenset())


def set_online(session_id: int, users: frozenset[int]) -> bool:
    """Record who is online at a table; whether that changed anything."""
    with _lock:
        changed = _online.get(session_id) != users
        _online[session_id] = users
        return changed


async def at_least(session_id: int, seq: int) -> TableSnapshot | None:
    """The table at ``seq`` or later: from memory, or from one database read shared by every caller."""
    snapshot = peek(session_id)
    for _ in range(2):  # a read already under way may have started just before the change committed
        if snapshot is not None and snapshot.seq >= seq:
            return snapshot
        reading = _reads.get(session_id)
        if reading is None or reading.get_loop() is not asyncio.get_running_loop():
            reading = asyncio.ensure_future(_read(session_id))
            _reads[session_id] = reading
        snapshot = await asyncio.shield(reading)
        if snapshot is None:
            return None
    return snapshot


async def _read(session_id: int) -> TableSnapshot | None:
    try:
        snapshot = await db(_read_sync)(session_id, peek(session_id))
    finally:
        _reads.pop(session_id, None)
    if snapshot is not None:
        with _lock:
            _online[session_id] = snapshot.online
        keep(snapshot)
    return snapshot


def _read_sync(session_id: int, known: TableSnapshot | None) -> TableSnapshot | None:
    """Only the cards played since ``known`` when that is all that changed, else the whole table."""
    moved_on = table_snapshot_after(known) if known is not None else None
    return moved_on if moved_on is not None else table_snapshot(session_id)


async def refresh_online(session_id: int) -> frozenset[int]:
    return await db(online_users)(session_id)
