"""Task queue benchmark: finished deals reviewed by 1 and by 2 task workers.

    .venv/bin/python -m tools.bench_tasks [--deals 40] [--game NAME] [--queue 1000] [--workers 1,2]

On PostgreSQL (``--database``, default ``femkort_bench_tasks``, dropped and recreated at start):
random sessions of ``--game`` with every action stored (``manage.py history_generate``); then for
each worker count, from an empty queue:

- reviews: ``--deals`` finished deals queued as the site queues them (``reviews_queue``: a review
  row and its task), run by that many ``manage.py tasks_worker --batch`` processes at once, until
  they end; reviews per second, and a check that every review is kept once (each task's review
  done, the seats' marks the sum of the reviews' marks);
- queue: ``--queue`` tasks of reviews already kept (each a lookup that finds its review done):
  what the queue itself costs per task.

Reviews are real searches (seconds per deal; ``docs/history.md``), so the first figure is the
reviews' own cost spread over the workers, and the second the queue's.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DATABASE = "postgres://postgres@127.0.0.1:5432/femkort_bench_tasks"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--game", default=None, help="a registered game (default: the registry's first)")
    parser.add_argument("--queue", type=int, default=1000)
    parser.add_argument("--workers", default="1,2")
    parser.add_argument("--database", default=DEFAULT_DATABASE)
    arguments = parser.parse_args()
    from tools.bench_load import recreate_database

    recreate_database(arguments.database)
    env = os.environ | {"DATABASE_URL": arguments.database, "FEMKORT_TASK_WORKERS": "0"}
    manage(env, "migrate", "--noinput", "-v", "0")
    sessions = max(2, arguments.deals // 4)
    game = ["--game", arguments.game] if arguments.game else []
    manage(env, "history_generate", "--players", "8", "--sessions", str(sessions), "--plays-sample", "1", *game)
    os.environ.update(env)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "femkort_site.settings")
    import django

    django.setup()
    from games.engine import GAMES

    name = arguments.game or next(iter(GAMES))
    print(f"{name}: reviews of {arguments.deals} deals, then {arguments.queue} tasks of kept reviews")
    for workers in [int(count) for count in arguments.workers.split(",")]:
        reviews, seconds = run_reviews(env, arguments.deals, workers)
        print(f"{workers} worker(s): {reviews} reviews in {seconds:.1f} s = {reviews / seconds:.2f} reviews/s")
        tasks, seconds = run_queue(env, arguments.queue, workers)
        print(f"{workers} worker(s): {tasks} tasks in {seconds:.1f} s = {tasks / seconds:.0f} tasks/s")


def run_reviews(env: dict[str, str], deals: int, workers: int) -> tuple[int, float]:
    from django.db.models import Sum
    from django_tasks_db.models import DBTaskResult

    from games import services
    from games.models import DealReview, GameSession, Seat

    DBTaskResult.objects.all().delete()
    DealReview.objects.all().delete()
    Seat.objects.update(review_marks=0)
    for session in GameSession.objects.order_by("pk"):
        services.reviews_queue(session)
        if DealReview.objects.count() >= deals:
            break
    queued = DealReview.objects.count()
    seconds = run_workers(env, workers)
    assert set(DealReview.objects.values_list("status", flat=True)) == {DealReview.Status.DONE}
    assert DBTaskResult.objects.filter(status="SUCCESSFUL").count() == queued
    marks = Seat.objects.aggregate(total=Sum("review_marks"))["total"]
    assert marks == DealReview.objects.aggregate(total=Sum("marked"))["total"], "marks counted twice"
    return queued, seconds


def run_queue(env: dict[str, str], count: int, workers: int) -> tuple[int, float]:
    from django_tasks_db.models import DBTaskResult

    from games import tasks
    from games.models import DealReview

    DBTaskResult.objects.all().delete()
    kept = list(DealReview.objects.values_list("pk", flat=True))
    for number in range(count):
        tasks.review_deal.enqueue(kept[number % len(kept)])
    seconds = run_workers(env, workers)
    assert DBTaskResult.objects.filter(status="SUCCESSFUL").count() == count
    return count, seconds


def run_workers(env: dict[str, str], workers: int) -> float:
    """Wall time from starting ``workers`` batch workers until the last has ended (start-up included)."""
    command = [sys.executable, "manage.py", "tasks_worker", "--batch", "--interval", "0"]
    started = time.monotonic()
    processes = [subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL) for _ in range(workers)]
    try:
        for process in processes:
            if process.wait(timeout=3600) != 0:
                raise SystemExit(f"a worker ended with {process.returncode}")
    finally:
        for process in processes:
            process.kill()
    return time.monotonic() - started


def manage(env: dict[str, str], *args: str) -> None:
    subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, check=True, stdout=subprocess.DEVNULL)


if __name__ == "__main__":
    main()
