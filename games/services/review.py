"""Reviews of finished deals: each queued as a task (``games.tasks.review_deal``) in the same
transaction as the move that finished its session, computed by a task worker (``manage.py
tasks_worker``), stored once however many times its task runs.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from femkort_site.processes import STOP, Stopped
from games import tasks
from games.bots.deal_analysis import review_record
from games.engine import get_game
from games.models import Deal, DealReview, GameSession, Seat

log = logging.getLogger(__name__)
ATTEMPTS = 3
RETRY_AFTER = timedelta(seconds=30)  # then 2 minutes: a database that went away has time to come back


def reviews_queue(session: GameSession) -> int:
    """Queue a review of each of the session's played deals (once; a deal dealt again unplayed has
    none), each with its task, in the caller's transaction: no task for a move rolled back."""
    deals = session.deals.filter(finished__isnull=False, review__isnull=True, plays__isnull=False).distinct()
    queued = 0
    with transaction.atomic():
        for deal in deals:
            review, made = DealReview.objects.get_or_create(deal=deal)
            if made:
                tasks.review_deal.enqueue(review.pk)
                queued += 1
    return queued


@dataclass(frozen=True)
class ReviewJob:
    """What computing a review needs, read from the database before the long search starts."""

    review_id: int
    game: str
    options: dict
    setup: dict
    actions: list[tuple[int, str]]
    scores: tuple[int, ...]
    seed: int

    def compute(self) -> tuple[list[dict[str, Any]], float]:
        return review_record(self.game, self.options, self.setup, self.actions, self.scores, self.seed)


def _job(review: DealReview) -> ReviewJob:
    deal = review.deal
    session = deal.session
    rules = get_game(session.game)
    scores: tuple[int, ...] = ()
    if deal.fair.get("match"):  # the session before the deal, as dealt: what each seat knew of the scores
        options = rules.parse_options(session.options)
        players = deal.fair["players"]
        scores = tuple(rules.match_from_record(deal.fair["match"], players=players, options=options).scores)
    actions = [(seat, action) for seat, action in deal.plays.values_list("seat", "action")]
    return ReviewJob(review.pk, session.game, dict(session.options), deal.setup, actions, scores, seed=deal.pk)


@transaction.atomic
def review_store(job: ReviewJob, decisions: list[dict[str, Any]], seconds: float) -> None:
    """Keep a computed review and add its marks to the seats' counts (once, whoever finished first)."""
    review = DealReview.objects.select_for_update().select_related("deal").get(pk=job.review_id)
    if review.status == DealReview.Status.DONE:
        return
    marked = [decision for decision in decisions if decision["mark"]]
    review.decisions, review.marked, review.seconds = decisions, len(marked), round(seconds, 3)
    review.status, review.finished = DealReview.Status.DONE, timezone.now()
    review.save(update_fields=["decisions", "marked", "seconds", "status", "finished"])
    for position in {decision["seat"] for decision in marked}:
        count = sum(1 for decision in marked if decision["seat"] == position)
        Seat.objects.filter(session_id=review.deal.session_id, position=position).update(
            review_marks=F("review_marks") + count
        )


def review_compute(review_id: int) -> str:
    """Compute and keep one deal's review; what became of it. A review already kept is left as it
    is, so a task that runs twice (its worker lost, then run again) stores one review. SIGTERM or
    Ctrl-C in a task worker ends the computing at once, and the attempt does not count."""
    review = DealReview.objects.select_related("deal__session").get(pk=review_id)
    if review.status != DealReview.Status.QUEUED:
        return review.status
    DealReview.objects.filter(pk=review_id).update(claimed=timezone.now(), attempts=F("attempts") + 1)
    job = _job(review)
    try:
        with STOP.at_once():
            decisions, seconds = job.compute()
    except Stopped:
        DealReview.objects.filter(pk=review_id).update(claimed=None, attempts=F("attempts") - 1)
        raise
    review_store(job, decisions, seconds)
    return DealReview.Status.DONE


@transaction.atomic
def review_failed(review_id: int) -> str:
    """A review whose computing raised: its task again after a pause (30 s, then 2 min), or given up
    after ``ATTEMPTS`` (said on its page; the failed tasks and their tracebacks are in the admin)."""
    review = DealReview.objects.select_for_update().get(pk=review_id)
    if review.status != DealReview.Status.QUEUED:
        return review.status
    if review.attempts >= ATTEMPTS:
        review.status, review.finished = DealReview.Status.FAILED, timezone.now()
        review.save(update_fields=["status", "finished"])
        return review.status
    pause = RETRY_AFTER * 4 ** (max(review.attempts, 1) - 1)
    tasks.review_deal.using(run_after=timezone.now() + pause).enqueue(review.pk)
    return "retried"


def reviews_run(session_id: int | None = None) -> int:
    """Compute the queued reviews (of one session's deals if asked) here and now, as their tasks
    would (a failure is retried by the queue), beside the task workers (their tasks then find them
    done); how many were stored."""
    queued = DealReview.objects.filter(status=DealReview.Status.QUEUED).order_by("queued", "pk")
    if session_id is not None:
        queued = queued.filter(deal__session_id=session_id)
    done = 0
    for review_id in list(queued.values_list("pk", flat=True)):
        try:
            done += tasks.review_deal.call(review_id) == DealReview.Status.DONE
        except Exception:
            log.exception("review %s failed", review_id)
    return done


def reviews_backfill() -> int:
    """Queue reviews for sessions that finished before reviews existed."""
    queued = 0
    for session in GameSession.objects.filter(status=GameSession.Status.FINISHED).exclude(
        pk__in=Deal.objects.filter(review__isnull=False).values("session_id")
    ):
        queued += reviews_queue(session)
    return queued
