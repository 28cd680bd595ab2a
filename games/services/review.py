"""Reviews of finished deals: queued when a session ends, computed by whichever process claims one
(the live server's sweep or ``manage.py reviews_run``), stored once.

The queue is the database: a claim is a conditional update, so two processes never compute the
same review, and a claim left by a process that died goes stale and is taken up again.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from femkort_site.processes import Stop, Stopped
from games.bots.deal_analysis import review_record
from games.engine import get_game
from games.models import Deal, DealReview, GameSession, Seat

log = logging.getLogger(__name__)
CLAIM_STALE = timedelta(minutes=10)  # far longer than any deal's review takes
ATTEMPTS = 3


def reviews_queue(session: GameSession) -> int:
    """Queue a review of each of the session's played deals (once; a deal dealt again unplayed has none)."""
    deals = session.deals.filter(finished__isnull=False, review__isnull=True, plays__isnull=False).distinct()
    made = DealReview.objects.bulk_create([DealReview(deal=deal) for deal in deals], ignore_conflicts=True)
    return len(made)


@dataclass(frozen=True)
class ReviewJob:
    """What computing a review needs, all plain values (it may run in another process)."""

    review_id: int
    game: str
    options: dict
    setup: dict
    actions: list[tuple[int, str]]
    scores: tuple[int, ...]
    seed: int

    @property
    def arguments(self) -> tuple:
        """For ``games.bots.deal_analysis.review_record``, here or in a worker process."""
        return self.game, self.options, self.setup, self.actions, self.scores, self.seed

    def compute(self) -> tuple[list[dict[str, Any]], float]:
        return review_record(*self.arguments)


def review_claim(session_id: int | None = None) -> ReviewJob | None:
    """Take up the oldest queued review nobody is computing (or whose computer went away), of
    one session's deals if asked."""
    now = timezone.now()
    waiting = DealReview.objects.filter(status=DealReview.Status.QUEUED).filter(
        Q(claimed__isnull=True) | Q(claimed__lt=now - CLAIM_STALE)
    )
    if session_id is not None:
        waiting = waiting.filter(deal__session_id=session_id)
    for review in waiting.order_by("queued", "pk").select_related("deal__session")[:5]:
        taken = DealReview.objects.filter(pk=review.pk, claimed=review.claimed, status=DealReview.Status.QUEUED)
        if taken.update(claimed=now, attempts=F("attempts") + 1):
            return _job(review)
    return None


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


def review_failed(job: ReviewJob) -> None:
    """A review that raised: tried again later, given up after a few attempts (said on its page)."""
    review = DealReview.objects.get(pk=job.review_id)
    if review.attempts >= ATTEMPTS:
        DealReview.objects.filter(pk=review.pk).update(status=DealReview.Status.FAILED, finished=timezone.now())
    else:
        DealReview.objects.filter(pk=review.pk).update(claimed=None)


def reviews_run(limit: int | None = None, session_id: int | None = None, *, stop: Stop | None = None) -> int:
    """Compute queued reviews here, one after another (``limit`` at most, of one session's deals if
    asked); how many were stored. When ``stop`` says so (SIGTERM, Ctrl-C), the run ends at once and
    the review under way goes back to the queue for whoever comes next."""
    stop = stop or Stop()
    done = 0
    while (limit is None or done < limit) and not stop.requested:
        job = review_claim(session_id)
        if job is None:
            break
        try:
            with stop.at_once():
                decisions, seconds = job.compute()
        except Stopped:
            review_release(job)
            break
        except Exception:
            log.exception("review %s failed", job.review_id)
            review_failed(job)
            continue
        review_store(job, decisions, seconds)
        done += 1
    return done


def review_release(job: ReviewJob) -> None:
    """A review whose computing was stopped: queued again at once (not when its claim goes stale),
    and the attempt does not count."""
    DealReview.objects.filter(pk=job.review_id, status=DealReview.Status.QUEUED).update(
        claimed=None, attempts=F("attempts") - 1
    )


def reviews_backfill() -> int:
    """Queue reviews for sessions that finished before reviews existed."""
    queued = 0
    for session in GameSession.objects.filter(status=GameSession.Status.FINISHED).exclude(
        pk__in=Deal.objects.filter(review__isnull=False).values("session_id")
    ):
        queued += reviews_queue(session)
    return queued
