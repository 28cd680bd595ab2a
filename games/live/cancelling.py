"""Loops that run until they are cancelled ask their task too, not only wait for the exception.

On Python 3.11, ``asyncio.wait_for`` returns its result instead of raising when a cancel lands
just as the awaited call finishes (fixed in 3.12). redis-py wraps every command it sends in
``wait_for`` (a socket timeout is set), so a listener cancelled at a server's shutdown, or at the
end of a test's event loop, could lose the cancel and go on listening for ever: channels-redis'
``receive`` itself loops over blocking pops until a message comes. The task still counts the
request (``Task.cancelling``), so a loop of ours can honour it at its next turn, and a call that
loops inside a library runs in a task of its own, asked again until it stops (``until_cancelled``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import TypeVar

T = TypeVar("T")
ASK_AGAIN_SECONDS = 0.1


def honour_cancel() -> None:
    """Raise ``CancelledError`` if this task was asked to stop and a call on the way swallowed it."""
    task = asyncio.current_task()
    if task is not None and task.cancelling():
        raise asyncio.CancelledError


async def until_cancelled(call: Awaitable[T]) -> T:
    """``await call``, in a task of its own that is cancelled, again and again, until it ends once
    this task is cancelled: a cancel the call swallowed does not keep it (or this task) running."""
    inner = asyncio.ensure_future(call)
    try:
        await asyncio.wait({inner})
    except asyncio.CancelledError:
        while not inner.done():
            inner.cancel()
            await asyncio.wait({inner}, timeout=ASK_AGAIN_SECONDS)
        raise
    return inner.result()
