"""Worker processes die with their server: the computers' workers and the task workers of
``runserver`` and daphne end when the server is stopped or killed; ``manage.py tasks_worker`` stops
at once on SIGTERM or Ctrl-C, giving the task it was running back to the queue; a task whose worker
was killed is run by another, and its review is kept once. Every review here goes on for ever
(``tests/endless_reviews``) unless a test says otherwise, so a worker is always stopped in the
middle of one."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path

import pytest
from django.db import connection
from django_tasks import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from games import services
from games.models import DealReview, Seat
from games.stored import deal_state
from tests.servers import ROOT, free_port, server_database_url, server_process
from tests.site_helpers import play_session, started_table

ENDLESS_REVIEWS = ROOT / "tests" / "endless_reviews"
WAIT = 30  # seconds at most for what a test waits for; it goes on as soon as it happens


@pytest.fixture
def env(tmp_path) -> dict[str, str]:
    """The server's processes share the test's rows through PostgreSQL; reviews never end."""
    if connection.vendor != "postgresql":
        if os.environ.get("CI"):
            pytest.fail("CI must run this test against PostgreSQL; set DATABASE_URL=postgres://...")
        pytest.skip("the server's processes see the test's rows only in PostgreSQL: set DATABASE_URL=postgres://...")
    paths = [str(ENDLESS_REVIEWS), str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]
    return {
        "DATABASE_URL": server_database_url(tmp_path),
        "PYTHONPATH": os.pathsep.join(paths),
        "FEMKORT_SWEEP_SECONDS": "0.1",
        "FEMKORT_TASK_WORKERS": "1",
    }


def work_for_both_pools(players) -> None:
    """Reviews queued (for the task worker) and a table waiting on a computer's card (for the
    computers' worker)."""
    play_session(players[:2], computers=1, seed=3, game="nap", options={"rounds": 1})
    assert DealReview.objects.exists()
    session = started_table(players[:1], computers=2)
    while True:  # the person plays until it is a computer's turn
        session.refresh_from_db()
        state = deal_state(session.deals.order_by("-number").first())
        if session.seats.get(position=state.to_act).user_id != players[0].pk:
            return
        services.action_take(
            session_id=session.pk, user=players[0], action=state.legal_cards()[0], seen_seq=session.seq
        )


def server_command(server: str, port: int) -> list[str]:
    if server == "runserver":  # with its autoreloader: the server runs in a child of this process
        return [sys.executable, "manage.py", "runserver", f"127.0.0.1:{port}"]
    return [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "femkort_site.asgi:application"]


@pytest.mark.slow  # starts servers
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("server", "stop"),
    [
        ("runserver", signal.SIGTERM),  # the autoreloader kills its server with SIGKILL
        ("runserver", signal.SIGKILL),
        ("daphne", signal.SIGKILL),
        ("daphne", signal.SIGTERM),  # a normal stop: Python would wait for the endless review
    ],
    ids=["runserver-term", "runserver-kill", "daphne-kill", "daphne-term"],
)
def test_the_workers_end_with_their_server(players, env, server, stop):
    work_for_both_pools(players)
    port = free_port()
    with tempfile.TemporaryFile() as log, server_process(server_command(server, port), env, port, log) as process:
        urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=10).read()  # starts the server's sweep
        wait_for(lambda: len(workers(process.pid)) >= 2, "a computers' worker and a task worker")
        wait_for(lambda: running().exists(), "the task worker to take up a review")
        tree = descendants(process.pid) | {process.pid: start_time(process.pid)}
        os.kill(process.pid, stop)  # the server's first process only, as a supervisor or kill(1) does
        process.wait(timeout=WAIT)
        wait_for(lambda: not survivors(tree), "every process of the server to end", survivors=lambda: survivors(tree))


@pytest.mark.slow  # starts a process that computes for ever
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT], ids=["term", "ctrl-c"])
def test_a_task_worker_stops_at_once_and_gives_the_task_back(players, env, stop):
    play_session(players[:2], computers=1, seed=3, game="nap", options={"rounds": 1})
    queued = DealReview.objects.count()
    with worker(env) as (process, log):
        wait_for(lambda: running().exists() or process.poll() is not None, "a task to be taken up")
        assert process.poll() is None, "tasks_worker ended on its own"
        os.kill(process.pid, stop)
        process.wait(timeout=WAIT)
    said = log.read()
    assert not running().exists(), said  # ready again at once, not when its lease is over
    assert "stopped;" in said, said
    assert set(DBTaskResult.objects.values_list("status", flat=True)) == {TaskResultStatus.READY}
    assert all(ids == [] for ids in DBTaskResult.objects.values_list("worker_ids", flat=True))
    review = DealReview.objects.filter(status=DealReview.Status.QUEUED)
    assert review.count() == queued
    assert set(review.values_list("attempts", flat=True)) == {0}  # a stop is not a failed attempt
    assert not review.filter(claimed__isnull=False).exists()


@pytest.mark.slow  # starts workers, one of them killed in the middle of a task
@pytest.mark.django_db(transaction=True)
def test_a_task_whose_worker_was_killed_is_finished_by_another_and_kept_once(players, env):
    session = play_session(players[:2], computers=1, seed=3, game="nap", options={"rounds": 1})
    with worker(env) as (process, _):  # its review never ends
        wait_for(lambda: running().exists(), "a task to be taken up")
        os.kill(process.pid, signal.SIGKILL)
        process.wait(timeout=WAIT)
    lost = running().get()
    # Another worker, whose reviews end, with a lease so short that the task is lost at once.
    with worker(env | {"PYTHONPATH": str(ROOT), "FEMKORT_TASK_LEASE_SECONDS": "0"}, "--batch") as (process, log):
        process.wait(timeout=WAIT * 4)
    said = log.read()
    assert process.returncode == 0, said
    lost.refresh_from_db()
    assert lost.status == TaskResultStatus.FAILED
    assert lost.exception_class_path == "games.task_queue.WorkerLost"
    assert set(DealReview.objects.values_list("status", flat=True)) == {DealReview.Status.DONE}
    assert DBTaskResult.objects.filter(status=TaskResultStatus.SUCCESSFUL).count() == DealReview.objects.count()
    for seat in Seat.objects.filter(session=session):  # each review's marks counted once
        marks = sum(
            1
            for review in DealReview.objects.filter(deal__session=session)
            for decision in review.decisions
            if decision["mark"] and decision["seat"] == seat.position
        )
        assert seat.review_marks == marks


@contextlib.contextmanager
def worker(env: dict[str, str], *args: str):
    """``manage.py tasks_worker`` in a process group of its own, ended at the end; its output."""
    with tempfile.TemporaryFile() as log:
        process = subprocess.Popen(
            [sys.executable, "manage.py", "tasks_worker", "--interval", "0.1", *args],
            cwd=ROOT,
            env=os.environ | env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        output = _Output(log)
        try:
            yield process, output
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=10)
            output.read()


class _Output:
    """What the worker wrote, readable after its log file is gone."""

    def __init__(self, log) -> None:
        self.log, self.text = log, ""

    def read(self) -> str:
        if not self.log.closed:
            self.log.seek(0)
            self.text = self.log.read().decode(errors="replace")
        return self.text


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the parent-death signal is Linux's")
def test_a_worker_whose_parent_died_before_it_could_ask_ends_at_once():
    """The worker is told its parent's pid; if its parent is no longer that process (it died and the
    worker was adopted), there will be no parent-death signal: it ends by itself."""
    gone = subprocess.Popen(["true"])
    gone.wait()
    code = (
        "import sys; from femkort_site.processes import die_with_parent;"
        " die_with_parent(int(sys.argv[1])); print('went on')"
    )
    ended = subprocess.run([sys.executable, "-c", code, str(gone.pid)], cwd=ROOT, capture_output=True, timeout=WAIT)
    assert ended.returncode == -signal.SIGTERM, ended
    assert b"went on" not in ended.stdout


def running():
    return DBTaskResult.objects.filter(status=TaskResultStatus.RUNNING)


def wait_for(happened: Callable[[], bool], what: str, survivors: Callable[[], object] | None = None) -> None:
    deadline = time.monotonic() + WAIT
    while not happened():
        if time.monotonic() > deadline:
            raise AssertionError(
                f"waited {WAIT} s for {what}" + (f"; still running: {survivors()}" if survivors else "")
            )
        time.sleep(0.05)


def _stat(pid: int) -> list[str] | None:
    """The fields of /proc/<pid>/stat after the command's name (state, parent, ...), or None."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return None
    return text.rpartition(")")[2].split()


def start_time(pid: int) -> int | None:
    fields = _stat(pid)
    return int(fields[19]) if fields else None


def descendants(pid: int) -> dict[int, int]:
    """Every process under ``pid``, with its start time (a pid may be reused once it is gone)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and (fields := _stat(int(entry.name))):
            children.setdefault(int(fields[1]), []).append(int(entry.name))
    found: dict[int, int] = {}
    todo = list(children.get(pid, []))
    while todo:
        child = todo.pop()
        if (started := start_time(child)) is not None:
            found[child] = started
            todo += children.get(child, [])
    return found


def workers(pid: int) -> list[int]:
    """The worker processes under ``pid``: the computers' (multiprocessing's, spawned) and the task workers."""
    return [
        child
        for child in descendants(pid)
        if b"multiprocessing.spawn" in _cmdline(child) or b"tasks_worker" in _cmdline(child)
    ]


def _cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except (FileNotFoundError, ProcessLookupError):
        return b""


def survivors(tree: dict[int, int]) -> list[str]:
    """Those of ``tree`` still running (a zombie has ended: it only waits to be reaped)."""
    left = []
    for pid, started in tree.items():
        fields = _stat(pid)
        if fields and int(fields[19]) == started and fields[0] not in "ZX":
            command = _cmdline(pid).replace(b"\0", b" ").decode(errors="replace")
            left.append(f"{pid} {command[:100]}")
    return left
