"""Background work, as tasks of Django's Tasks API (``django_tasks``, the backport of Django 6's
``django.tasks``). Its database backend keeps the queue in the site's own database, so a task is
enqueued in the same transaction as the change that causes it: a change rolled back leaves no task,
and no change is kept without its task. Task workers (``manage.py tasks_worker``) run them; every
task here may run twice (a worker lost mid-task, its task run again) and keeps its work once.
"""

from __future__ import annotations

from django_tasks import task

from games import services


@task()
def review_deal(review_id: int) -> str:
    """Compute a finished deal's review; one that raises is tried again later, then given up."""
    try:
        return services.review_compute(review_id)
    except Exception:
        services.review_failed(review_id)
        raise  # this attempt shows as failed, with its traceback, among the admin's task results
