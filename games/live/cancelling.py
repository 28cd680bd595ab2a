"""Loops that run until they are cancelled ask their task too, not only wait for the exception.

On Python 3.11, ``asyncio.wait_for`` returns its result instead of raising when a cancel lands
just as the awaited call finishes (fixed in 3.12). redis-py wraps every command it sends in
``wait_for`` (a socket timeout is set), so a listener cancelled at a server's shutdown, or at the
end of a test's event loop, could lose the cancel and go on listening for ever. The task still
counts the request (``Task.cancelling``), so a loop can honour it at its next turn.
"""

from __future__ import annotations

import asyncio


def honour_cancel() -> None:
    """Raise ``CancelledError`` if this task was asked to stop and a call on the way swallowed it."""
    task = asyncio.current_task()
    if task is not None and task.cancelling():
        raise asyncio.CancelledError
