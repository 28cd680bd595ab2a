"""Database work of the live layer runs on a small pool of threads, not on one.

``database_sync_to_async`` defaults to one thread per process for every socket; a pool lets
one table's query wait on PostgreSQL while another's runs. SQLite keeps that one shared
thread: it locks whole tables, and its in-memory test databases refuse a second thread.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import ParamSpec, TypeVar

from channels.db import DatabaseSyncToAsync
from django.conf import settings
from django.db import connection

P = ParamSpec("P")
R = TypeVar("R")
_executor: ThreadPoolExecutor | None = None
_local = threading.local()


def db(func: Callable[P, R]) -> Callable[P, Awaitable[R]]:
    """``func`` as a coroutine function run on the database threads (connections closed as Django expects)."""

    async def call(*args: P.args, **kwargs: P.kwargs) -> R:
        loop = asyncio.get_running_loop()

        def job() -> R:
            _local.loop = loop
            try:
                return func(*args, **kwargs)
            finally:
                _local.loop = None

        if connection.vendor == "sqlite" or settings.FEMKORT_DB_THREADS <= 1:
            return await DatabaseSyncToAsync(job)()
        return await DatabaseSyncToAsync(job, thread_sensitive=False, executor=_pool())()

    return call


def serving_loop() -> asyncio.AbstractEventLoop | None:
    """The event loop this database thread is working for, if it is one of ours: it can be handed
    work without waiting for it.
    """
    return getattr(_local, "loop", None)


def _pool() -> ThreadPoolExecutor:
    global _executor
    if _executor is None:
        _executor = ThreadPoolExecutor(max_workers=settings.FEMKORT_DB_THREADS, thread_name_prefix="femkort-db")
    return _executor
