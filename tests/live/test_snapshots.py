"""Table snapshots: one consistent read, and a cheap step forward when only cards were played."""

import pytest

from games import services
from games.selectors import table_snapshot, table_snapshot_after
from games.stored import deal_state

pytestmark = pytest.mark.django_db


@pytest.fixture
def session(players):
    session = services.table_create(host=players[0], seats=3)
    for user in players[1:]:
        services.seat_take(session_id=session.pk, user=user)
    return services.session_start(session_id=session.pk, user=players[0])


def play_one(session, players):
    session.refresh_from_db()
    state = deal_state(session.deals.order_by("-number").first())
    services.action_take(
        session_id=session.pk, user=players[state.to_act], action=state.legal_cards()[0], seen_seq=session.seq
    )
    return state


def test_a_snapshot_steps_forward_by_the_cards_played_since(session, players):
    known = table_snapshot(session.pk)
    for _ in range(4):
        play_one(session, players)
    stepped, fresh = table_snapshot_after(known), table_snapshot(session.pk)
    assert stepped.seq == fresh.seq == known.seq + 4
    assert stepped.state.plays == fresh.state.plays
    assert stepped.state.hands == fresh.state.hands
    assert stepped.session.due == fresh.session.due


def test_the_end_of_a_deal_needs_the_whole_table(session, players):
    known = table_snapshot(session.pk)
    while len(play_one(session, players).plays) < 14:  # the fifteenth card ends the three-player deal
        pass
    assert table_snapshot(session.pk).deal.number == 2
    assert table_snapshot_after(known) is None


def test_a_change_that_is_not_a_card_needs_the_whole_table(session, players):
    known = table_snapshot(session.pk)
    play_one(session, players)
    services.session_leave(session_id=session.pk, user=players[1])  # a seat changes hands, no card
    assert table_snapshot_after(known) is None
