"""Frames of changed regions, in every game: a page several changes behind that swaps them in shows
exactly the table a fresh page shows, and no frame holds a card its viewer may not see."""

from __future__ import annotations

import random

import pytest
from django.utils import translation

from games import services
from games.engine import GAMES
from games.models import GameSession
from games.records import deal_state, seat_choices
from games.selectors import table_snapshot, table_view
from games.table_html import table_frame, table_html
from tests.live_helpers import DATA_CARD, swapped_in, timeless
from tests.site_helpers import started_table

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("game", list(GAMES))
@pytest.mark.parametrize("language", ["en", "ru"])
def test_a_page_behind_by_several_changes_gets_only_what_changed_and_shows_the_table(make_user, game, language):
    rules = GAMES[game]
    users = [make_user(f"p{n}") for n in range(min(seat_choices(rules)))]
    session = started_table(users, game=game, options={})
    rng = random.Random(7)
    shown: dict[int, tuple[str, dict]] = {}
    partial = 0
    for round_ in range(12):
        snapshot = table_snapshot(session.pk)
        if snapshot.session.status != GameSession.Status.PLAYING:
            break
        public = set(DATA_CARD.findall(table_html(table_view(snapshot, None))))  # what a spectator sees
        hands = [set(snapshot.state.view(seat).hand) for seat in range(len(users))]
        for seat, user in enumerate(users):
            with translation.override(language):
                table = table_view(snapshot, user)
                whole = table_html(table)
                page, regions = shown.get(seat, (None, None))
                frame, regions = table_frame(table, regions)
            hidden = set().union(*(hand for other, hand in enumerate(hands) if other != seat)) - public - hands[seat]
            assert not set(DATA_CARD.findall(frame)) & hidden, (game, seat, snapshot.seq)
            if '<div id="table"' not in frame:
                partial += 1
                page = swapped_in(page, frame)
                assert timeless(page) == timeless(whole), (game, seat, snapshot.seq)
            else:
                page = frame
            shown[seat] = (page, regions)
        for _ in range(1 + round_ % 4):  # one to four changes between two frames
            state = deal_state(session.deals.order_by("-number").first())
            if state.is_over or session.status != GameSession.Status.PLAYING:
                break
            legal = state.legal_actions()
            action = rules.rule_of_thumb(state) if rules.has_rule_of_thumb and rng.random() < 0.5 else rng.choice(legal)
            session = services.action_take(
                session_id=session.pk, user=users[state.to_act], action=action, seen_seq=session.seq
            )
    assert partial >= len(users) * 4, f"{game}: only {partial} frames of regions"
