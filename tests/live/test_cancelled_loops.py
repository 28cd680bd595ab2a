"""A listener or socket that is cancelled ends, even when a call on the way swallowed the cancel.

Python 3.11's ``asyncio.wait_for``, which redis-py wraps around every command it sends, returns
instead of raising when a cancel lands as the command's send finishes. A table listener that lost
its cancel that way went on listening for ever, and the event loop closing under it (a test's end,
a server's shutdown) waited for it: one CI run hung 300 s in a test's teardown so.
"""

import asyncio

import pytest
from channels.db import database_sync_to_async

from games.live import sockets
from games.live.base import LiveConsumer
from tests.live_helpers import connect, frames_until
from tests.site_helpers import started_table


class Calls:
    """Counts calls and lets a test wait for the n-th one."""

    def __init__(self) -> None:
        self.count = 0
        self.changed = asyncio.Event()

    def add(self) -> None:
        self.count += 1
        self.changed.set()

    async def reached(self, count: int) -> None:
        while self.count < count:
            self.changed.clear()
            await self.changed.wait()


async def swallow_cancel(calls: Calls):
    """Wait until cancelled; the first time, return as if the call had finished (what 3.11's
    ``wait_for`` does), later cancels end the task as they should."""
    calls.add()
    try:
        await asyncio.Event().wait()
    except asyncio.CancelledError:
        if calls.count > 1:
            raise
        return {"type": "table.changed", "session": -1, "seq": 0}


async def ended_or_called_again(task: asyncio.Task, calls: Calls) -> bool:
    """Whether ``task`` ended before it made another call: waits for whichever comes first."""
    again = asyncio.ensure_future(calls.reached(calls.count + 1))
    await asyncio.wait([task, again], return_when=asyncio.FIRST_COMPLETED)
    again.cancel()
    return task.done()


async def test_the_table_listener_ends_when_a_receive_swallowed_its_cancel(monkeypatch):
    """As channels-redis' ``receive`` does when a blocking pop's send swallowed the cancel: it
    loops and pops again, and only a later cancel ends it."""
    calls = Calls()

    class Layer:
        async def receive(self, channel):
            while True:  # a swallowed cancel returns a pop's nothing: pop again
                await swallow_cancel(calls)

    monkeypatch.setattr(sockets, "get_channel_layer", Layer)
    listener = asyncio.ensure_future(sockets._hand_out("tables.test!listener"))
    await calls.reached(1)
    listener.cancel()
    with pytest.raises(asyncio.CancelledError):
        await asyncio.wait_for(listener, timeout=60)  # a bound for a failure: it ends at once or never
    assert calls.count == 2  # the receive was asked again, and stopped


@pytest.mark.django_db(transaction=True)
async def test_a_socket_ends_when_a_handler_swallowed_its_cancel(players, monkeypatch):
    calls = Calls()

    async def player_invited(self, event):  # a handler whose Redis call lost the cancel
        await swallow_cancel(calls)

    monkeypatch.setattr(LiveConsumer, "player_invited", player_invited)
    table = await database_sync_to_async(started_table)(players)
    page = await connect(table.pk, players[0])
    await frames_until(page, table.seq)
    (socket,) = sockets._players[players[0].pk]
    socket.nudges.put_nowait({"type": "player.invited", "invitation": 1})
    await calls.reached(1)
    consumer = page.future
    consumer.cancel()
    socket.nudges.put_nowait({"type": "player.invited", "invitation": 2})  # a socket still running takes it
    assert await ended_or_called_again(consumer, calls)
    assert consumer.done()
