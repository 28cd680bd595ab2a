"""Run background tasks (reviews of finished deals, tournaments' pairing, and whatever comes next)
from the task queue. Each server starts ``FEMKORT_TASK_WORKERS`` of these beside itself, and
``FEMKORT_TOURNAMENT_WORKERS`` that take only the ``tournaments`` queue; in production they may run
anywhere that reaches the database. SIGTERM or Ctrl-C stops it at once; the task under way goes
back to the queue."""

from __future__ import annotations

import os
from datetime import timedelta

from django.conf import settings
from django.core.management.base import BaseCommand
from django.utils.crypto import get_random_string
from django_tasks import DEFAULT_TASK_BACKEND_ALIAS

from femkort_site.processes import STOP, die_with_parent_named
from games.task_queue import TaskWorker


class Command(BaseCommand):
    help = "Run queued background tasks; --batch: until none is ready, then end."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--batch", action="store_true", help="end when no task is ready")
        parser.add_argument("--max-tasks", type=int, default=None, help="end after this many tasks")
        parser.add_argument("--interval", type=float, default=1.0, help="seconds between looks at an empty queue")
        parser.add_argument("--nice", type=int, default=0, help="yield the processor to the servers by this much")
        parser.add_argument(
            "--queue", action="append", default=None, help="take only this queue's tasks (repeatable; default: all)"
        )

    def handle(
        self, *args, batch: bool, max_tasks: int | None, interval: float, nice: int, queue: list[str] | None, **options
    ) -> None:
        die_with_parent_named()
        if nice:
            os.nice(nice)
        worker = TaskWorker(
            lease=timedelta(seconds=settings.FEMKORT_TASK_LEASE_SECONDS),
            queue_names=queue or ["*"],
            interval=interval,
            batch=batch,
            backend_name=DEFAULT_TASK_BACKEND_ALIAS,
            startup_delay=False,
            max_tasks=max_tasks,
            worker_id=f"{os.uname().nodename}:{os.getpid()}:{get_random_string(6)}"[:64],
            excluded_queue_names=[],
        )
        worker.run()
        stopped = "stopped; " if STOP.requested else ""
        self.stdout.write(f"{stopped}{worker._run_tasks} tasks taken up")
