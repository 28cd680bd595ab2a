"""Reviews on the site: queued when a session ends, computed once, shown on the finished deal's
page with a progress note meanwhile, counted in the personal history (their tasks:
tests/site/test_task_queue.py)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games import services
from games.models import Deal, DealReview, GameSession, Seat
from tests.site_helpers import play_session, started_table

pytestmark = pytest.mark.django_db
NAP = {"game": "nap", "options": {"rounds": 1}}


def nap_session(players, **extra) -> GameSession:
    return play_session(players[:2], computers=1, seed=3, **NAP, **extra)


def test_a_finished_session_queues_one_review_per_played_deal(players):
    session = nap_session(players)
    played = Deal.objects.filter(session=session, plays__isnull=False).distinct().count()
    assert played >= 1
    assert DealReview.objects.filter(deal__session=session, status=DealReview.Status.QUEUED).count() == played
    assert services.reviews_queue(session) == 0  # once
    deal = session.deals.order_by("number").first()
    page = Client().get(reverse("deal_review", args=[deal.pk])).content.decode()
    assert f"0 of {played} deal" in page
    assert 'hx-trigger="every 10s"' in page  # the page looks again until its review is in


def test_a_running_session_has_no_review_and_an_unfinished_deal_no_page(players):
    session = started_table(players, target=2)
    deal = session.deals.get()
    assert Client().get(reverse("deal_review", args=[deal.pk])).status_code == 404
    assert not DealReview.objects.exists()


def test_reviews_are_computed_once_stored_and_shown_with_their_marks(players):
    session = nap_session(players)
    total = DealReview.objects.count()
    assert services.reviews_run() == total
    assert services.reviews_run() == 0
    for review in DealReview.objects.select_related("deal"):
        assert review.status == DealReview.Status.DONE
        plays = list(review.deal.plays.values_list("seat", "action"))
        for decision in review.decisions:
            assert plays[decision["index"]] == (decision["seat"], decision["played"])
        assert review.marked == sum(1 for decision in review.decisions if decision["mark"])
    for seat in Seat.objects.filter(session=session):
        marks = sum(
            1
            for review in DealReview.objects.filter(deal__session=session)
            for decision in review.decisions
            if decision["mark"] and decision["seat"] == seat.position
        )
        assert seat.review_marks == marks
    reviewed = max(DealReview.objects.all(), key=lambda review: len(review.decisions))
    page = Client().get(reverse("deal_review", args=[reviewed.deal_id])).content.decode()
    assert "The strong player" in page
    assert "being computed" not in page
    replay = Client().get(reverse("deal_replay", args=[reviewed.deal_id])).content.decode()
    assert reverse("deal_review", args=[reviewed.deal_id]) in replay
    profile = Client().get(reverse("player", args=[players[0].username])).content.decode()
    marked = Seat.objects.get(session=session, user=players[0]).review_marks
    assert f"{marked} decision" in profile
