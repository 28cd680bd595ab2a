"""Background work, as tasks of Django's Tasks API (``django_tasks``, the backport of Django 6's
``django.tasks``). Its database backend keeps the queue in the site's own database, so a task is
enqueued in the same transaction as the change that causes it: a change rolled back leaves no task,
and no change is kept without its task. Task workers (``manage.py tasks_worker``) run them; every
task here may run twice (a worker lost mid-task, its task run again) and keeps its work once.
"""

from __future__ import annotations

from django_tasks import task

from games import services
from games.task_queue import TOURNAMENTS  # a queue of its own: workers that take only these


@task()
def review_deal(review_id: int) -> str:
    """Compute a finished deal's review; one that raises is tried again later, then given up."""
    try:
        return services.review_compute(review_id)
    except Exception:
        services.review_failed(review_id)
        raise  # this attempt shows as failed, with its traceback, among the admin's task results


@task()
def turn_notify(session_id: int, user_id: int, seq: int) -> str:
    """Tell a person their turn began at a turn-based table (push now, an e-mail digest queued)."""
    return services.turn_notify(session_id=session_id, user_id=user_id, seq=seq)


@task()
def turn_digest(user_id: int) -> str:
    """Send a person the e-mail listing every turn-based table waiting on them."""
    return services.digest_send(user_id=user_id)


@task(priority=5)  # a player is waiting for them on the event's page: ahead of the reviews
def board_references(board_id: int) -> str:
    """Play a duplicate board with strong computers at every seat and search its par."""
    return services.references_compute(board_id)


@task()
def event_reveal(event_id: int) -> str:
    """A duplicate event reveals: tables still in play end, every result's percentage is fixed."""
    return services.event_reveal(event_id)


@task(queue_name=TOURNAMENTS, priority=10)
def arena_pair(tournament_id: int) -> str:
    """An arena's pairing pass: free players seated at new tables."""
    return f"{len(services.arena_pair(tournament_id))} tables"


@task(queue_name=TOURNAMENTS, priority=10)
def swiss_next(tournament_id: int) -> str:
    """A Swiss tournament's table ended: the next round once every table of this one is over."""
    return services.swiss_next(tournament_id)


@task(queue_name=TOURNAMENTS, priority=10)
def tournament_finish(tournament_id: int) -> str:
    """An arena's last table after its end is over: the final standings."""
    return services.tournament_finish(tournament_id)


@task(queue_name=TOURNAMENTS, priority=10)
def tournaments_tick() -> str:
    """The tournaments' clock: the schedule, starts, computers for long waits, arenas' ends."""
    return services.tournaments_tick()
