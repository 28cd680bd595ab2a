"""Redeal by agreement (docs/rules/femkort.md §10) as actions: anyone may ask once before the
first card; the others answer in turn from the asker's left; all agree: the same dealer deals
again; one refusal: play goes on. Computers answer by their hand."""

from __future__ import annotations

import json
import random
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async

from games import services
from games.engine import FEMKORT, IllegalPlay
from games.engine.records import public_record, record_of, replay
from games.engine.tricks.seat_view import view_for
from games.models import Deal, Play, Seat
from games.selectors import table_snapshot, table_view
from games.stored import deal_state
from games.table_html import table_html
from tests.live_helpers import connect, frames_until
from tests.site_helpers import started_table

REDEAL = {"redeal": True, "target": 3}


def fresh_deal():
    return FEMKORT.deal(players=3, dealer=0, options=FEMKORT.parse_options(REDEAL), rng=random.Random(2))


def test_anyone_may_ask_once_and_the_others_answer_in_turn():
    deal = fresh_deal()
    assert deal.to_act == 1
    assert "redeal:yes" in deal.legal_actions()
    asked = deal.apply("redeal:yes", seat=2)  # out of turn: asking is anyone's right
    assert asked.to_act == 0
    assert asked.legal_actions() == ["redeal:yes", "redeal:no"]
    assert asked.legal_cards() == []
    with pytest.raises(IllegalPlay) as card_first:
        asked.apply(deal.hand(0)[0], seat=0)
    assert card_first.value.rule == "poll_open"
    with pytest.raises(IllegalPlay) as out_of_turn:
        asked.apply("redeal:yes", seat=1)
    assert out_of_turn.value.rule == "not_your_turn"
    agreed = asked.apply("redeal:yes").apply("redeal:yes")
    assert agreed.redealt
    assert agreed.is_over
    assert agreed.winner is None
    assert agreed.to_act is None
    refused = asked.apply("redeal:no")
    assert not refused.redealt
    assert refused.to_act == 1
    assert refused.legal_actions() == refused.legal_cards()
    with pytest.raises(IllegalPlay) as again:
        refused.apply("redeal:yes", seat=2)
    assert again.value.rule == "no_poll"
    played = deal.apply(deal.legal_cards()[0])
    with pytest.raises(IllegalPlay):
        played.apply("redeal:yes", seat=0)
    without = FEMKORT.deal(players=3, dealer=0, options=FEMKORT.parse_options({}), rng=random.Random(2))
    assert "redeal:yes" not in without.legal_actions()


def test_a_redealt_record_replays():
    agreed = fresh_deal().apply("redeal:yes", seat=2).apply("redeal:yes").apply("redeal:yes")
    record = record_of(agreed) | {"actions": ["redeal:yes", "redeal:yes", "redeal:yes"]}
    del record["plays"]
    assert replay(record) == {"tricks": [], "winner": None, "redeal": True}
    finished = fresh_deal().apply("redeal:yes", seat=2).apply("redeal:yes").apply("redeal:no")
    while not finished.is_over:
        finished = finished.apply(finished.legal_cards()[0])
    record = public_record(view_for(finished, "everyone"))
    assert record["asker"] == 2
    assert record["actions"][:3] == ["redeal:yes", "redeal:yes", "redeal:no"]
    assert replay(record)["winner"] == finished.winner


@pytest.mark.django_db
def test_everyone_agrees_and_the_same_dealer_deals_again(players, client):
    session = started_table(players, options=REDEAL)
    first = session.deals.get()
    state = deal_state(first)
    asker = players[0]
    html = table_html(table_view(table_snapshot(session.pk), asker))
    assert "Ask for new cards" in html
    session = services.action_take(session_id=session.pk, user=asker, action="redeal:yes", seen_seq=session.seq)
    answering = " ".join(table_view(table_snapshot(session.pk), None).header.notices)
    assert "asks for new cards" in answering
    while deal_state(Deal.objects.get(pk=first.pk)).poll_open:
        voter = Seat.objects.get(session=session, position=deal_state(first).to_act).user
        session = services.action_take(session_id=session.pk, user=voter, action="redeal:yes", seen_seq=session.seq)
    first.refresh_from_db()
    assert first.finished is not None
    assert first.winner is None
    again = session.deals.order_by("-number").first()
    assert again.number == 2
    assert again.dealer == state.dealer
    assert list(Play.objects.filter(deal=first).values_list("action", flat=True)) == ["redeal:yes"] * 3
    assert "deals again" in table_html(table_view(table_snapshot(session.pk), None))
    assert client.get(f"/sessions/{session.pk}/export.json").json() == []  # a redealt deal's cards stay hidden


@pytest.mark.django_db
def test_one_refusal_and_play_goes_on(players):
    session = started_table(players, options=REDEAL)
    session = services.action_take(session_id=session.pk, user=players[1], action="redeal:yes", seen_seq=session.seq)
    voter = Seat.objects.get(session=session, position=deal_state(session.deals.get()).to_act).user
    session = services.action_take(session_id=session.pk, user=voter, action="redeal:no", seen_seq=session.seq)
    state = deal_state(session.deals.get())
    assert not state.poll_open
    assert not state.redealt
    assert state.legal_cards()
    assert "play goes on" in " ".join(table_view(table_snapshot(session.pk), None).header.notices)
    with pytest.raises(services.TableError) as again:
        services.action_take(session_id=session.pk, user=players[2], action="redeal:yes", seen_seq=session.seq)
    assert "only once" in again.value.message
    assert "Ask for new cards" not in table_html(table_view(table_snapshot(session.pk), players[2]))


@pytest.mark.django_db
def test_computers_answer_a_request_for_new_cards(players):
    session = started_table(players[:1], computers=2, options=REDEAL)
    services.computers_play_all(session_id=session.pk)  # a computer leader waits: people may ask first
    session.refresh_from_db()
    assert not Play.objects.filter(deal__session=session).exists()
    if deal_state(session.deals.get()).to_act != 0:
        assert session.due >= session.turn_since + timedelta(seconds=5)
    services.action_take(session_id=session.pk, user=players[0], action="redeal:yes", seen_seq=session.seq)
    services.computers_play_all(session_id=session.pk)
    votes = Play.objects.filter(deal__session=session, action__startswith="redeal:").exclude(seat=0)
    assert votes.exists()
    assert {vote.seat for vote in votes} <= {1, 2}
    first = session.deals.order_by("number").first()
    assert not deal_state(first).poll_open


@pytest.mark.django_db(transaction=True)
async def test_asking_for_new_cards_over_the_websocket(players):
    session = await database_sync_to_async(started_table)(players, options=REDEAL)
    socket = await connect(session.pk, players[2])
    await frames_until(socket, session.seq)
    await socket.send_to(text_data=json.dumps({"action": "play", "card": "redeal:yes", "seq": session.seq}))
    frames = await frames_until(socket, session.seq + 1)
    assert "asks for new cards" in frames[-1]
    await socket.disconnect()


@pytest.mark.django_db
def test_an_ask_out_of_turn_is_stored_with_its_seat_and_read_back_the_same(players, client):
    session = started_table(players, options=REDEAL)
    state = deal_state(session.deals.get())
    asker = next(seat for seat in state.seats if seat != state.to_act)
    user = Seat.objects.get(session=session, position=asker).user
    session = services.action_take(session_id=session.pk, user=user, action="redeal:yes", seen_seq=session.seq)
    again = deal_state(session.deals.get())
    assert again.poll.asker == asker  # replayed from the stored rows, seat and all
    voter = Seat.objects.get(session=session, position=again.to_act).user
    session = services.action_take(session_id=session.pk, user=voter, action="redeal:no", seen_seq=session.seq)
    while session.status == "playing" and session.deals.count() == 1:
        state = deal_state(session.deals.get())
        if state.is_over:
            break
        mover = Seat.objects.get(session=session, position=state.to_act).user
        session = services.action_take(
            session_id=session.pk, user=mover, action=state.legal_cards()[0], seen_seq=session.seq
        )
    exported = client.get(f"/sessions/{session.pk}/export.json").json()[0]
    assert exported["asker"] == asker
    assert replay(exported)["winner"] == session.deals.order_by("number").first().winner
