"""The processes the site starts end with the process that started them.

A server's worker processes (computer players' decisions, reviews) are spawned from its event
loop's thread, which lives as long as the server; each asks the kernel for SIGTERM when that thread
ends (Linux's parent-death signal, which comes even after ``kill -9``), lets SIGTERM end it at once
even in the middle of a computation, and leaves Ctrl-C to its server. A server that exits normally
(SIGTERM, Ctrl-C, a reload) ends its workers first, instead of waiting for the work they have in
hand. ``runserver``'s autoreloader serves from a child process, which dies with the reloader the
same way. A long-running command stops at once on SIGTERM or Ctrl-C where it is safe (``Stop``).

No Django here: ``manage.py`` uses it before Django is set up.
"""

from __future__ import annotations

import atexit
import ctypes
import multiprocessing
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from types import FrameType
from typing import Any

PR_SET_PDEATHSIG = 1  # <linux/prctl.h>
AUTORELOAD_ENV = "RUN_MAIN"  # django.utils.autoreload.DJANGO_AUTORELOAD_ENV: "true" in the served child
RELOADER_PID = "FEMKORT_RELOADER_PID"
PARENT_ENV = "FEMKORT_PARENT_PID"  # set for a command started by ``command_beside``
_ending_at_exit = False
_exiting = False
_commands: list[subprocess.Popen] = []


def die_with_parent(parent: int, number: signal.Signals = signal.SIGTERM) -> None:
    """Signal ``number`` for this process when its parent ``parent`` ends (Linux; elsewhere nothing is
    done), and at once if it has already ended, before it could be asked."""
    if not sys.platform.startswith("linux"):
        return
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_PDEATHSIG, ctypes.c_ulong(number), 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_PDEATHSIG) failed")
    if os.getppid() != parent:
        os.kill(os.getpid(), number)


def worker_pool(workers: int, *, nice: int = 0) -> ProcessPoolExecutor:
    """``workers`` processes that die with this one (``nice``: how far they yield the processor).
    Start it from a thread that lives as long as the process: the kernel watches that thread."""
    _end_workers_at_exit()
    context = multiprocessing.get_context("spawn")  # never fork a process with threads and sockets
    return ProcessPoolExecutor(workers, mp_context=context, initializer=_worker_start, initargs=(os.getpid(), nice))


def _worker_start(parent: int, nice: int) -> None:
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # ends it mid-computation, whatever it inherited
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the whole group: the server ends its workers
    die_with_parent(parent)
    if nice:
        os.nice(nice)


def command_beside(args: list[str]) -> subprocess.Popen:
    """``manage.py args`` in a process that dies with this one (the command calls
    ``die_with_parent_named`` first). Start it from a thread that lives as long as this process."""
    _end_workers_at_exit()
    manage = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "manage.py")
    process = subprocess.Popen(
        [sys.executable, manage, *args],
        env=os.environ | {PARENT_ENV: str(os.getpid())},
    )
    _commands.append(process)
    return process


def die_with_parent_named() -> None:
    """In a command started by ``command_beside``: end when the process that started it ends."""
    if parent := os.environ.get(PARENT_ENV):
        die_with_parent(int(parent))


def exiting() -> bool:
    """This process is exiting and has ended its workers: their pools breaking is no error."""
    return _exiting


def _workers_end() -> None:
    """End every worker process this process started, busy or not."""
    global _exiting
    _exiting = True
    for worker in multiprocessing.active_children():
        worker.terminate()
    for command in _commands:
        if command.poll() is None:
            command.terminate()


def _end_workers_at_exit() -> None:
    """At exit Python waits for the pools' work in hand (a review may take minutes): end the workers
    first. Hooks registered with threading run before threads are joined, the newest first, so
    before the pools' own."""
    global _ending_at_exit
    if not _ending_at_exit:
        getattr(threading, "_register_atexit", atexit.register)(_workers_end)
        _ending_at_exit = True


def served_child_dies_with_reloader(argv: list[str]) -> None:
    """``runserver``'s autoreloader serves from a child process and leaves it serving, workers and
    all, when it is killed itself: the child dies with it, by SIGKILL as the reloader itself ends it
    on SIGTERM (its workers follow it)."""
    if argv[1:2] != ["runserver"]:
        return
    if os.environ.get(AUTORELOAD_ENV) == "true":
        if reloader := os.environ.get(RELOADER_PID):
            die_with_parent(int(reloader), signal.SIGKILL)
    else:
        os.environ[RELOADER_PID] = str(os.getpid())


class Stopped(BaseException):
    """SIGTERM or Ctrl-C came in the middle of work that may be dropped (not an error: ``except
    Exception`` does not catch it)."""


class Stop:
    """SIGTERM and Ctrl-C for a long-running command, while it is in ``with``: they end work inside
    ``at_once()`` (pure computation, nothing half written) at once by raising ``Stopped``; elsewhere
    they only set ``requested``, for the command to stop after the step in hand. Outside ``with``
    (tests, the shell) nothing stops it."""

    def __init__(self) -> None:
        self.requested = False
        self._at_once = False
        self._before: dict[int, Any] = {}

    def __enter__(self) -> Stop:
        for number in (signal.SIGTERM, signal.SIGINT):
            self._before[number] = signal.signal(number, self._arrived)
        return self

    def __exit__(self, *exc_info: object) -> None:
        for number, handler in self._before.items():
            signal.signal(number, signal.SIG_DFL if handler is None else handler)  # None: not set from Python

    def _arrived(self, number: int, frame: FrameType | None) -> None:
        self.requested = True
        if self._at_once:
            self._at_once = False
            raise Stopped(signal.Signals(number).name)

    @contextmanager
    def at_once(self) -> Iterator[None]:
        self._at_once = True
        try:
            if self.requested:
                raise Stopped("stop requested")
            yield
        finally:
            self._at_once = False


STOP = Stop()  # the one a long-running command enters (``with STOP:``); work calls ``STOP.at_once()``
