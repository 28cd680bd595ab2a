"""The draw over the websocket: the marked cards come with the draw in one frame (one card as a
string, several as a list, as a form sends them) and are taken in one move."""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async

from games.engine import get_game
from tests.live_helpers import connect, frames_until, next_message, table_now
from tests.site_helpers import started_table

pytestmark = pytest.mark.django_db(transaction=True)
RULES = get_game("auction_forty_five")


def move(action: str, seq: int, **extra) -> str:
    return json.dumps({"action": "play", "move": action, "seq": seq, **extra})


async def test_marked_cards_go_with_the_draw_in_one_frame(players, make_user):
    people = [*players, await database_sync_to_async(make_user)("dag")]
    session = await database_sync_to_async(started_table)(people, game="auction_forty_five", options={})
    sockets = [await connect(session.pk, user) for user in people]
    drawn = []
    while len(drawn) < 2:
        session, state = await table_now(session.pk)
        mover = sockets[state.to_act]
        await frames_until(mover, session.seq)
        if RULES.progress(state).step != "draw":
            await mover.send_to(text_data=move(RULES.rule_of_thumb(state), session.seq))
            await frames_until(mover, session.seq + 1)
            continue
        hand = state.view(state.to_act).hand
        if not drawn:  # a card not in the hand refuses the whole move
            stranger = next(card for card in ("AS", "KS", "QS", "JS", "TS", "9S") if card not in hand)
            await mover.send_to(text_data=move("draw", session.seq, marked=[hand[0], stranger]))
            assert "is not in your hand: nothing changed." in await next_message(mover)
            assert (await table_now(session.pk))[0].seq == session.seq
        marked = hand[0] if not drawn else [hand[1], hand[3]]  # one card comes as a string
        await mover.send_to(text_data=move("draw", session.seq, marked=marked))
        count = 1 if isinstance(marked, str) else len(marked)
        await frames_until(mover, session.seq + count + 1)
        after, now = await table_now(session.pk)
        assert after.seq == session.seq + count + 1
        calls = now.calls[len(state.calls) : len(state.calls) + count + 1]
        assert calls == (*(f"discard:{card}" for card in hand if card in marked), "draw")
        drawn.append(marked)
    for socket in sockets:
        await socket.disconnect()
