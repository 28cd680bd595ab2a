"""Real daphne processes on 127.0.0.1 for tests that need what only a server shows (static files, Redis, idling)."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest
from django.conf import settings
from django.db import connection

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def shared_services_or_skip() -> None:
    """Server processes share the test's rows only through PostgreSQL, and its messages only through Redis."""
    needs = []
    if connection.vendor != "postgresql":
        needs.append("DATABASE_URL=postgres://...")
    if not os.environ.get("REDIS_URL"):
        needs.append("REDIS_URL=redis://...")
    if needs:
        if os.environ.get("CI"):
            pytest.fail(f"CI must run this test against the real services; set {' and '.join(needs)}")
        pytest.skip(f"needs shared services: set {' and '.join(needs)}")


def server_database_url(workdir: Path) -> str:
    """A database a server process can use: the test run's own on PostgreSQL (so the server sees
    the test's rows), else a fresh SQLite file in ``workdir``, migrated.
    """
    if connection.vendor == "postgresql":
        name = connection.settings_dict["NAME"]
        assert name.startswith("test_"), f"the test database is not set up: a server would use {name!r}"
        url = urlsplit(os.environ["DATABASE_URL"])
        return urlunsplit(url._replace(path="/" + name))
    url = f"sqlite:///{workdir}/server.sqlite3"
    manage("migrate", "--noinput", env={"DATABASE_URL": url})
    return url


def production_env(static_root: Path, **extra: str) -> dict[str, str]:
    """Production mode as docs/deployment.md runs it, behind a (pretend) TLS proxy."""
    return {
        "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": settings.SECRET_KEY,  # the test's session cookies must stay valid
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
        "DJANGO_SECURE_SSL_REDIRECT": "0",
        "DJANGO_STATIC_ROOT": str(static_root),
        "DJANGO_EMAIL_BACKEND": "django.core.mail.backends.dummy.EmailBackend",
        **extra,
    }


def manage(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=os.environ | env,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )


@contextmanager
def daphne(env: dict[str, str], port: int | None = None) -> Iterator[str]:
    """A daphne process on 127.0.0.1 with ``env`` on top of this one; yields its base URL."""
    port = port or free_port()
    with tempfile.TemporaryFile() as log:
        yield from _serve(env, port, log)


@contextmanager
def make_serve(env: dict[str, str]) -> Iterator[str]:
    """The site served exactly as docs/deployment.md runs it (``make serve``), on 127.0.0.1."""
    port = free_port()
    command = ["make", "--no-print-directory", "serve", "HOST=127.0.0.1", f"PORT={port}"]
    with tempfile.TemporaryFile() as log:
        yield from _serve(env, port, log, command)


def _serve(env: dict[str, str], port: int, log, command: list[str] | None = None) -> Iterator[str]:
    command = command or [
        sys.executable,
        *("-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "femkort_site.asgi:application"),
    ]
    with server_process(command, env, port, log):
        yield f"http://127.0.0.1:{port}"


@contextmanager
def server_process(command: list[str], env: dict[str, str], port: int, log) -> Iterator[subprocess.Popen]:
    """``command`` serving on 127.0.0.1:``port`` in a process group of its own, up; at the end every
    process left in that group is ended, the server's workers too (even if the server died first)."""
    process = subprocess.Popen(
        command,
        cwd=ROOT,
        env=os.environ | {"FEMKORT_COMPUTER_PAUSE": "0", "FEMKORT_TRICK_PAUSE_SECONDS": "0"} | env,
        stdout=subprocess.DEVNULL,
        stderr=log,
        start_new_session=True,  # make and the daphne it starts end together
    )
    base = f"http://127.0.0.1:{port}"
    try:
        _wait_until_up(process, base, log)
        yield process
    except BaseException:
        log.seek(0)
        print(f"--- the server at {base} said:\n{log.read().decode(errors='replace')[-5000:]}")
        raise
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=10)
        with contextlib.suppress(ProcessLookupError):  # whatever is left: a stuck server, orphaned workers
            os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=10)


def _wait_until_up(process: subprocess.Popen, base: str, log) -> None:
    host, port = base.removeprefix("http://").split(":")
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            socket.create_connection((host, int(port)), timeout=1).close()
            return
        except OSError:
            if process.poll() is not None:
                raise RuntimeError(f"daphne at {base} stopped at start") from None
            time.sleep(0.1)
    process.kill()
    raise RuntimeError(f"daphne at {base} did not start")


class TcpProxy:
    """A loopback forwarder to a real service: ``stop()`` is an outage (the listener and every
    connection closed at once), ``start()`` the service coming back on the same address.
    """

    def __init__(self, target: tuple[str, int]):
        self.target = target
        self.port = free_port()
        self.listener: socket.socket | None = None
        self.links: list[socket.socket] = []

    def start(self) -> None:
        self.listener = socket.create_server(("127.0.0.1", self.port), reuse_port=False)
        threading.Thread(target=self._accept, args=(self.listener,), daemon=True).start()

    def stop(self) -> None:
        if self.listener is not None:
            with contextlib.suppress(OSError):  # wakes the accepting thread: without it the port keeps listening
                self.listener.shutdown(socket.SHUT_RDWR)
            self.listener.close()
            self.listener = None
        for link in self.links:
            with contextlib.suppress(OSError):
                link.shutdown(socket.SHUT_RDWR)
            link.close()
        self.links.clear()

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                near, _ = listener.accept()
                far = socket.create_connection(self.target, timeout=5)
            except OSError:
                return
            far.settimeout(None)
            self.links += [near, far]
            for source, sink in ((near, far), (far, near)):
                threading.Thread(target=self._pump, args=(source, sink), daemon=True).start()

    @staticmethod
    def _pump(source: socket.socket, sink: socket.socket) -> None:
        with contextlib.suppress(OSError):
            while data := source.recv(65536):
                sink.sendall(data)
        with contextlib.suppress(OSError):
            sink.shutdown(socket.SHUT_WR)


def table_socket(base: str, session_id: int, user):
    """A logged-in websocket client to a running server's table (use it in a ``with``)."""
    from websockets.sync.client import connect as ws_connect

    from tests.live_helpers import session_cookie

    url = base.replace("http", "ws") + f"/ws/tables/{session_id}/"
    headers = {"Cookie": session_cookie(user).decode(), "Origin": base}
    return ws_connect(url, additional_headers=headers, open_timeout=10)


def next_view(client, at_least: int = 0, timeout: float = 10) -> str:
    """The next table view a websocket client receives, at ``at_least`` or later (messages are skipped)."""
    from tests.live_helpers import frame_seq

    deadline = time.monotonic() + timeout
    while True:
        frame = client.recv(timeout=max(0.1, deadline - time.monotonic()))
        seq = frame_seq(frame)
        if seq is not None and seq >= at_least:
            return frame
