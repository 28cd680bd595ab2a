"""Deals stored the old way (hands, trump, upcard and options in columns of their own) read the
same after the move to the game's own setup: the state replayed from them, their replay page
and their export."""

import random

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client

from games.engine import EUCHRE, FEMKORT
from games.models import Deal
from games.stored import deal_state

BEFORE = [("games", "0018_socket_openings")]
AFTER = [("games", "0019_deal_setup")]


@pytest.fixture
def back_to_the_latest_schema():
    yield
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


def _played(state):
    """Every action of a whole deal, each the first legal one: (seat, action) as stored."""
    actions = []
    while not state.is_over:
        action = state.legal_actions()[0]
        actions.append((state.to_act, action))
        state = state.apply(action)
    return actions, state


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("back_to_the_latest_schema")
def test_old_deal_rows_become_setups(players):
    femkort = FEMKORT.deal(players=3, dealer=1, options=FEMKORT.parse_options({"trump": True}), rng=random.Random(5))
    euchre = EUCHRE.deal(players=4, dealer=2, options=EUCHRE.parse_options({}), rng=random.Random(6))
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    apps = executor.loader.project_state(BEFORE).apps
    Session, OldDeal, Play = (apps.get_model("games", name) for name in ("GameSession", "Deal", "Play"))
    rows = {}
    for name, state, seats in (("femkort", femkort, 3), ("euchre", euchre, 4)):
        session = Session.objects.create(
            game=name, options={}, seat_count=seats, status="finished", host_id=players[0].pk, match={}
        )
        deal = OldDeal.objects.create(
            session=session,
            number=1,
            dealer=state.dealer,
            hands=[list(hand) for hand in state.dealt],
            trump=state.trump or "",
            upcard=state.upcard or "",
            options=state.options.as_record(state.trump),
            finished="2026-01-01T00:00:00Z",
        )
        actions, final = _played(state)
        for index, (seat, action) in enumerate(actions, start=1):
            Play.objects.create(deal=deal, seq=index, seat=seat, action=action)
        rows[name] = (deal.pk, final)

    MigrationExecutor(connection).migrate(AFTER)
    latest = MigrationExecutor(connection)
    latest.migrate(latest.loader.graph.leaf_nodes())

    femkort_deal = Deal.objects.get(pk=rows["femkort"][0])
    assert femkort_deal.setup == {
        "dealer": 1,
        "hands": [list(hand) for hand in femkort.dealt],
        "options": femkort.options.as_record(femkort.trump),
    }
    euchre_deal = Deal.objects.get(pk=rows["euchre"][0])
    assert euchre_deal.setup["upcard"] == euchre.upcard
    for pk, final in rows.values():
        replayed = deal_state(Deal.objects.get(pk=pk))
        assert replayed == final  # the same deal, to the last card
        assert replayed.trump == final.trump
        assert Client().get(f"/deals/{pk}/replay/").status_code == 200
        assert Client().get(f"/deals/{pk}/export.json").json() == final.public_record()
