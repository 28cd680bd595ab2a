"""Daphne with a database round-trip counter, for tools.bench_load (no product code changes).

    FEMKORT_BENCH_COUNTS=/tmp/counts.json \\
        python -m tools.bench_server -b 127.0.0.1 -p 8001 femkort_site.asgi:application

Sets up Django, then counts in this process, across every thread's connection:

- ``queries``: every statement sent through Django's cursor (an ``execute_wrapper``
  on each new connection; ``executemany`` counts one);
- ``commits`` and ``rollbacks``: ``connection.commit()``/``rollback()`` (each is one
  round trip, and psycopg sends a ``BEGIN`` before the first query of each transaction);
- ``pings``: connection health checks (``SELECT 1`` sent by psycopg directly, bypassing
  the cursor wrapper; ``CONN_HEALTH_CHECKS`` runs one per request or consumer DB call);
- ``renders``: templates rendered whole (the ``render`` of Django's template backend and of its
  Jinja2 backend, the live table's pieces; an include inside one is not counted again).

It writes the totals as JSON to the file named by ``FEMKORT_BENCH_COUNTS`` (replaced
atomically, with a ``serial`` that goes up each time) once at start and then whenever it
receives SIGUSR1, so the bench reads them at the exact start and end of its window and
nothing runs in the background. Then it runs daphne's command line with the remaining
arguments, exactly as ``python -m daphne ...`` would.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from typing import Any


class Counters:
    """Thread-safe running totals."""

    def __init__(self) -> None:
        self._lock = threading.RLock()  # a signal handler may read while its thread holds the lock
        self._counts = {"queries": 0, "commits": 0, "rollbacks": 0, "pings": 0, "connections": 0, "renders": 0}

    def add(self, name: str) -> None:
        with self._lock:
            self._counts[name] += 1

    def snapshot(self) -> dict[str, int]:
        with self._lock:
            return dict(self._counts)


COUNTERS = Counters()


def _count_query(execute: Callable[..., Any], sql: str, params: Any, many: bool, context: dict[str, Any]) -> Any:
    COUNTERS.add("queries")
    return execute(sql, params, many, context)


def _on_connection_created(sender: Any, connection: Any, **kwargs: Any) -> None:
    COUNTERS.add("connections")
    # The wrapper list lives on the (thread-local) DatabaseWrapper and survives reconnects: add it once.
    if _count_query not in connection.execute_wrappers:
        connection.execute_wrappers.append(_count_query)


def _counting(method: Callable[..., Any], name: str) -> Callable[..., Any]:
    def wrapper(self: Any, *args: Any, **kwargs: Any) -> Any:
        if self.connection is not None:
            COUNTERS.add(name)
        return method(self, *args, **kwargs)

    return wrapper


def _count_render(render: Callable[..., Any]) -> Callable[..., Any]:
    def wrapper(self: Any, *args: Any, **kwargs: Any) -> Any:
        COUNTERS.add("renders")
        return render(self, *args, **kwargs)

    return wrapper


def install() -> None:
    """Count queries on every new connection, commits, rollbacks and health checks, and renders."""
    from django.db import connections
    from django.db.backends.signals import connection_created
    from django.template.backends import django, jinja2

    for backend in (django, jinja2):  # the pages' templates and the live table's pieces
        backend.Template.render = _count_render(backend.Template.render)
    connection_created.connect(_on_connection_created, weak=False)
    backend = type(connections["default"])
    for method, name in (("_commit", "commits"), ("_rollback", "rollbacks"), ("is_usable", "pings")):
        setattr(backend, method, _counting(getattr(backend, method), name))


class Writer:
    """Writes the totals to ``path``, numbered, each time it is called."""

    def __init__(self, path: str) -> None:
        self.path, self.serial = path, 0

    def __call__(self, *signal_args: Any) -> None:
        data = COUNTERS.snapshot() | {"pid": os.getpid(), "serial": self.serial, "time": time.monotonic()}
        self.serial += 1
        partial = f"{self.path}.partial"
        try:
            with open(partial, "w") as out:
                json.dump(data, out)
            os.replace(partial, self.path)
        except OSError:
            pass


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "femkort_site.settings")
    import django

    django.setup()
    install()
    path = os.environ.get("FEMKORT_BENCH_COUNTS")
    if path:
        writer = Writer(path)
        signal.signal(signal.SIGUSR1, writer)  # daphne (twisted) handles only INT, TERM and CHLD
        writer()
    from daphne.cli import CommandLineInterface

    sys.argv = ["daphne", *sys.argv[1:]]
    CommandLineInterface.entrypoint()


if __name__ == "__main__":
    main()
