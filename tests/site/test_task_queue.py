"""Background work on the task queue (Django's Tasks API, database backend): a finished session's
reviews are queued as tasks in the transaction of the move that finished it; a task worker runs
them; a task run twice keeps its work once; a failing task is tried again later, then given up and
shown in the admin; a task left running by a lost worker is run again."""

from __future__ import annotations

import pytest
from django.db import transaction
from django.test import Client
from django.urls import reverse
from django_tasks import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from games import tasks
from games.models import DealReview, GameSession, Seat
from games.services import review as review_service
from tests.site_helpers import TASK_LEASE, play_session, run_tasks

pytestmark = pytest.mark.django_db(transaction=True)  # a worker closes its connections between tasks


def nap_session(players) -> GameSession:
    return play_session(players[:2], computers=1, seed=3, game="nap", options={"rounds": 1})


def rolled_back(change) -> None:
    with transaction.atomic():
        change()
        raise RuntimeError("the database refused the move")


def statuses() -> list[str]:
    return sorted(DBTaskResult.objects.values_list("status", flat=True))


def marks(session: GameSession) -> dict[int, int]:
    return dict(Seat.objects.filter(session=session).values_list("position", "review_marks"))


def test_a_finished_sessions_reviews_are_queued_as_tasks_in_its_own_transaction(players):
    session = nap_session(players)
    reviews = sorted(DealReview.objects.filter(deal__session=session).values_list("pk", flat=True))
    assert reviews
    queued = DBTaskResult.objects.all()
    assert {result.task_path for result in queued} == {"games.tasks.review_deal"}
    assert sorted(result.args_kwargs["args"][0] for result in queued) == reviews
    assert statuses() == [TaskResultStatus.READY] * len(reviews)
    with pytest.raises(RuntimeError):
        rolled_back(lambda: nap_session(players))  # the session's last move, with everything before it
    assert DBTaskResult.objects.count() == len(reviews)  # no task for what was rolled back
    assert DealReview.objects.count() == len(reviews)


def test_a_worker_runs_each_review_once_and_a_task_run_twice_keeps_it_once(players):
    session = nap_session(players)
    count = DealReview.objects.count()
    assert run_tasks() == count
    assert statuses() == [TaskResultStatus.SUCCESSFUL] * count
    assert set(DealReview.objects.values_list("status", flat=True)) == {DealReview.Status.DONE}
    kept = {review.pk: review.decisions for review in DealReview.objects.all()}
    counted = marks(session)
    assert sum(counted.values()) == sum(review.marked for review in DealReview.objects.all())
    for review_id in kept:  # every task again, as if each had been run by a worker taken for lost
        tasks.review_deal.enqueue(review_id)
    assert run_tasks() == count
    assert {review.pk: review.decisions for review in DealReview.objects.all()} == kept
    assert marks(session) == counted  # not counted twice
    assert set(DBTaskResult.objects.values_list("return_value", flat=True)) == {DealReview.Status.DONE}


def test_a_failing_review_is_tried_again_later_then_given_up_and_shown_in_the_admin(
    players, clock, monkeypatch, admin_client
):
    def broken(*arguments):
        raise RuntimeError("the search ran out of memory")

    monkeypatch.setattr(review_service, "review_record", broken)
    nap_session(players)
    count = DealReview.objects.count()
    assert run_tasks() == count
    assert run_tasks() == 0  # tried again later, not at once
    clock.advance(review_service.RETRY_AFTER.total_seconds() - 1)
    assert run_tasks() == 0
    clock.advance(1)
    assert run_tasks() == count  # the second attempt, 30 s on
    clock.advance(4 * review_service.RETRY_AFTER.total_seconds())
    assert run_tasks() == count  # the third, two minutes on: the last
    clock.advance(3600)
    assert run_tasks() == 0
    assert statuses() == [TaskResultStatus.FAILED] * (count * review_service.ATTEMPTS)
    assert set(DealReview.objects.values_list("status", flat=True)) == {DealReview.Status.FAILED}
    assert set(DealReview.objects.values_list("attempts", flat=True)) == {review_service.ATTEMPTS}
    deal_id = DealReview.objects.first().deal_id
    assert "could not be computed" in Client().get(reverse("deal_review", args=[deal_id])).content.decode()
    failed = admin_client.get("/admin/django_tasks_database/dbtaskresult/?status__exact=FAILED")
    assert failed.status_code == 200
    assert "review_deal" in failed.content.decode()
    result = DBTaskResult.objects.first()
    detail = admin_client.get(f"/admin/django_tasks_database/dbtaskresult/{result.pk}/change/").content.decode()
    assert "the search ran out of memory" in detail  # its traceback


def test_a_task_left_running_by_a_lost_worker_runs_again_when_its_lease_is_over(players, clock):
    session = nap_session(players)
    lost = DBTaskResult.objects.ready().first()
    lost.claim("a worker that was killed")
    others = DealReview.objects.count() - 1
    assert run_tasks() == others
    lost.refresh_from_db()
    assert lost.status == TaskResultStatus.RUNNING  # it may still be running somewhere
    clock.advance(TASK_LEASE.total_seconds() + 1)
    assert run_tasks() == 1
    lost.refresh_from_db()
    assert lost.status == TaskResultStatus.FAILED
    assert lost.exception_class_path == "games.task_queue.WorkerLost"
    assert set(DealReview.objects.values_list("status", flat=True)) == {DealReview.Status.DONE}
    assert sum(marks(session).values()) == sum(review.marked for review in DealReview.objects.all())
