"""The task workers: Django's Tasks API's database worker (``django_tasks_db``), with what a game
site needs around it. SIGTERM and Ctrl-C end a task at once where it allows (``STOP.at_once()``)
and give it back to the queue; a task left running by a worker that died (``kill -9``, a lost
machine) is run again once its lease is over (tasks keep their work once, so a slow task run twice
costs time, never a double result); a worker started beside a server ends with it.
"""

from __future__ import annotations

import logging
import time
from datetime import timedelta

from django.conf import settings
from django.db import OperationalError, close_old_connections, transaction
from django.utils import timezone
from django_tasks import TaskResultStatus
from django_tasks_db.management.commands.db_worker import Worker
from django_tasks_db.models import DBTaskResult
from django_tasks_db.utils import exclusive_transaction, is_locked_database_exception

from femkort_site.processes import STOP, Stopped

log = logging.getLogger(__name__)
TOURNAMENTS = "tournaments"  # the queue whose workers keep the tournaments' clock


class WorkerLost(Exception):
    """Shown in the admin for a task whose worker went away before it finished."""


def lost_tasks_again(lease: timedelta) -> int:
    """Run again every task that has been running for longer than ``lease``: its worker died."""
    again = 0
    with transaction.atomic():
        lost = DBTaskResult.objects.running().filter(started_at__lt=timezone.now() - lease)
        for result in lost.select_for_update(skip_locked=True):
            result.set_failed(WorkerLost(f"no word from worker {result.worker_ids[-1:]} for {lease}"))
            result.task.enqueue(*result.args_kwargs["args"], **result.args_kwargs["kwargs"])
            again += 1
    if again:
        log.warning("ran again %d tasks whose worker was lost", again)
    return again


class TaskWorker(Worker):
    """One worker process: takes the oldest ready task, runs it, and looks for lost ones when idle."""

    def __init__(self, *, lease: timedelta, **options) -> None:
        super().__init__(**options)
        self.lease = lease
        # Looking for lost tasks reads the running ones, whose rows have no index of their own:
        # when idle, at most a few times per lease (and at once when a worker starts).
        self.lost_every = min(60.0, lease.total_seconds() / 4)
        self.lost_looked = float("-inf")
        self.ticked = float("-inf")

    def run(self) -> None:
        with STOP:
            while not STOP.requested:
                close_old_connections()
                ran = self.run_next()
                if self.max_tasks is not None and self._run_tasks >= self.max_tasks:
                    return
                ticked = self.tick_queue()  # on time, busy or not
                if not ran:
                    if self.lost_tasks_again() or ticked:
                        continue
                    if self.batch:
                        return
                    time.sleep(self.interval)

    def lost_tasks_again(self) -> int:
        if time.monotonic() - self.lost_looked < self.lost_every:
            return 0
        self.lost_looked = time.monotonic()
        return lost_tasks_again(self.lease)

    def tick_queue(self) -> bool:
        """A tournaments worker (``--queue tournaments``), never in a batch run, queues the
        tournaments' clock every few seconds, unless one is queued already (by another)."""
        every = settings.FEMKORT_TOURNAMENT_TICK_SECONDS
        if self.batch or every <= 0 or TOURNAMENTS not in self.queue_names:
            return False
        if time.monotonic() - self.ticked < every:
            return False
        self.ticked = time.monotonic()
        from games import tasks

        path = tasks.tournaments_tick.module_path
        if not DBTaskResult.objects.ready().filter(task_path=path).exists():
            tasks.tournaments_tick.enqueue()
            return True
        return False

    def run_next(self) -> bool:
        tasks = DBTaskResult.objects.ready().filter(backend_name=self.backend_name)
        if not self.process_all_queues:
            tasks = tasks.filter(queue_name__in=self.queue_names)
        try:
            with exclusive_transaction(tasks.db):  # SQLite (the embedded default): one claim at a time
                task_result = tasks.get_locked()
                if task_result is not None:
                    task_result.claim(self.worker_id)
        except OperationalError as error:
            if is_locked_database_exception(error):  # the server is writing: look again soon
                return False
            raise
        if task_result is None:
            return False
        self.run_task(task_result)
        return True

    def run_task(self, db_task_result: DBTaskResult) -> None:
        super().run_task(db_task_result)  # records any exception the task raised, Stopped too
        if db_task_result.exception_class_path == f"{Stopped.__module__}.{Stopped.__qualname__}":
            self.give_back(db_task_result)

    @staticmethod
    def give_back(result: DBTaskResult) -> None:
        """A task stopped by SIGTERM or Ctrl-C: ready again at once for whoever comes next."""
        result.status = TaskResultStatus.READY
        result.started_at = result.finished_at = None
        result.exception_class_path = result.traceback = ""
        result.worker_ids = result.worker_ids[:-1]
        result.save(
            update_fields=["status", "started_at", "finished_at", "exception_class_path", "traceback", "worker_ids"]
        )
