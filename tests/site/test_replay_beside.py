"""A replay shows what lay beside the table as the table showed it: Seven Up's turn-up (and any
card turned and set aside before it), where trump came from."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games.stored import deal_state
from tests.site_helpers import play_session

pytestmark = pytest.mark.django_db


def test_a_seven_up_replay_shows_the_turn_up(players):
    session = play_session(players[:2], game="seven_up", seed=2)
    deals = [deal for deal in session.deals.order_by("number") if not deal_state(deal).thrown_in]
    assert deals
    client = Client()
    for deal in deals:
        turned = deal_state(deal).contract.turned
        total = deal.plays.count()
        for step in (0, total):
            with translation.override("en"):
                page = client.get(reverse("deal_replay", args=[deal.pk]), {"step": step}).content.decode()
            turn_up = re.search(r'<p class="row-area turn-up">.*?</p>', page, re.S)
            assert turn_up, f"deal {deal.number}, step {step}: no turn-up"
            assert "Turned up:" in turn_up.group()
            assert f'data-card="{turned[-1] if step else turned[0]}"' in turn_up.group()
