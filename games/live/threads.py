"""Database work of the live layer runs on a small pool of threads, not on one.

``database_sync_to_async`` defaults to one thread per process for every socket; a pool lets
one table's query wait on PostgreSQL while another's runs. SQLite keeps that one shared
thread: it locks whole tables, and its in-memory test databases refuse a second thread.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import ParamSpec, TypeVar

from channels.db import DatabaseSyncToAsync
from django.conf import settings
from django.db import connection

P = ParamSpec("P")
R = TypeVar("R")
_executor: ThreadPoolExecutor | None = None


def db(func: Callable[P, R]) -> Callable[P, Awaitable[R]]:
    """``func`` as a coroutine function run on the database threads (connections closed as Django expects)."""
    if connection.vendor == "sqlite" or settings.FEMKORT_DB_THREADS <= 1:
        return DatabaseSyncToAsync(func)
    return DatabaseSyncToAsync(func, thread_sensitive=False, executor=_pool())


def _pool() -> ThreadPoolExecutor:
    global _executor
    if _executor is None:
        _executor = ThreadPoolExecutor(max_workers=settings.FEMKORT_DB_THREADS, thread_name_prefix="femkort-db")
    return _executor
