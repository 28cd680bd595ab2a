"""tools.bench_load reads the frames the consumer really sends: keep its parser in step with the markup."""

import pytest
from django.template.loader import render_to_string

from games import services
from games.models import GameSession
from games.selectors import table_view_for
from games.stored import deal_state
from games.table_html import message_html, table_html
from tools.bench_load import View, message_text, parse_frame

pytestmark = pytest.mark.django_db


def pushed_view(session: GameSession, user) -> str:
    """What TableConsumer sends: the table, then the (empty) message."""
    return table_html(table_view_for(session, user)) + message_html("")


def test_the_player_to_act_sees_its_legal_cards_and_the_others_none(players):
    session = services.table_create(host=players[0], seats=3)
    for user in players[1:]:
        services.seat_take(session_id=session.pk, user=user)
    session = services.session_start(session_id=session.pk, user=players[0])
    state = deal_state(session.deals.get())
    for seat, user in enumerate(players):
        view = parse_frame(pushed_view(session, user))
        assert view.seq == session.seq
        assert sorted(view.playable) == (sorted(state.legal_cards()) if seat == state.to_act else [])


def test_attribute_order_does_not_matter_and_messages_are_not_views():
    frame = (
        '<div data-seq="7" class="table" id="table"><button disabled name="move" value="2S">2</button>'
        '<button class="card" value="QH" type="submit" name="move" aria-label="disabled">Q</button>'
        '<button name="move" value="3C" aria-disabled="true">3</button>'
        '<button type="submit">other</button></div>'
    )
    assert parse_frame(frame) == View(7, ("QH",))
    refusal = render_to_string("games/_message.html", {"message": "The table has moved on."})
    assert parse_frame(refusal) is None
    assert message_text(refusal) == "The table has moved on."
    assert message_text('<span id="seat-1-presence" hx-swap-oob="true">online</span>') is None


def test_the_floor_sends_views_the_bench_reads_of_the_size_asked(monkeypatch):
    """The stack floor's frames parse as views: the seq, and one card for the seat to play (seq mod 4)."""
    from tools.bench_floor import frame

    monkeypatch.setenv("FLOOR_FRAME_BYTES", "5000")
    for seq in range(8):
        for seat in range(3):
            sent = frame(seq, seat)
            assert len(sent.encode()) == 5000
            assert parse_frame(sent) == View(seq, ("2C",) if seq % 4 == seat else ())


def test_a_frame_of_changed_regions_is_read_as_the_view_it_brings(players):
    """The seq comes from #table-state, the cards from the hand when it came too (a hand not sent did
    not change: a player whose turn it is now always gets its hand)."""
    from games.table_html import table_frame

    session = services.table_create(host=players[0], seats=3)
    for user in players[1:]:
        services.seat_take(session_id=session.pk, user=user)
    session = services.session_start(session_id=session.pk, user=players[0])
    before = {seat: table_frame(table_view_for(session, user), None)[1] for seat, user in enumerate(players)}
    state = deal_state(session.deals.get())
    mover = players[state.to_act]
    session = services.action_take(
        session_id=session.pk, user=mover, action=state.legal_cards()[0], seen_seq=session.seq
    )
    state = deal_state(session.deals.get())
    for seat, user in enumerate(players):
        frame, _ = table_frame(table_view_for(session, user), before[seat])
        assert '<div id="table"' not in frame  # only regions
        view = parse_frame(frame + message_html(""))
        assert view.seq == session.seq
        if seat == state.to_act:
            assert sorted(view.playable) == sorted(state.legal_cards())
        else:
            assert view.playable == ()
