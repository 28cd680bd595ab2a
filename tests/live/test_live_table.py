"""Live play over websockets: views on connect, moves pushed to everyone, errors to one, no leaks."""

import json
import random

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.utils import translation

from femkort_site.asgi import application
from games import services, snapshots
from games.engine import get_game
from games.engine.cards import CARDS
from games.models import Connection, Deal, GameSession, Play, SeedDraw
from tests.live_helpers import (
    DATA_CARD,
    connect,
    drain,
    frame_seq,
    frame_where,
    frames_until,
    hidden_at,
    hidden_from,
    next_message,
    session_over_sockets,
    table_now,
    table_when,
    timeless,
    view_where,
)
from tests.site_helpers import started_table

pytestmark = pytest.mark.django_db(transaction=True)


def start_table(players, computers=0, **table):
    return database_sync_to_async(started_table)(players, computers=computers, **table)


EVERY_GAME = [
    pytest.param({}, id="femkort"),
    pytest.param({"options": {"trump": True, "pot": True, "stack": 3, "target": 2}}, id="femkort-trump-pot"),
    pytest.param({"options": {"profile": "classic", "trump": True, "target": 2}}, id="femkort-classic-trump"),
    pytest.param({"game": "letzter_stich", "options": {"tokens": 2}}, id="letzter_stich"),
    pytest.param({"options": {"redeal": True, "target": 2}}, id="femkort-redeal"),
]


@database_sync_to_async
def seeds_now(session_id: int) -> set[str]:
    drawn = SeedDraw.objects.filter(session_id=session_id).values_list("seed", flat=True)
    dealt = Deal.objects.filter(session_id=session_id).values_list("fair", flat=True)
    return set(drawn) | {fair["seed"] for fair in dealt if fair}


def play_frame(card: str, seq: int, **extra) -> str:
    return json.dumps({"action": "play", "card": card, "seq": seq, "HEADERS": {"HX-Request": "true"}, **extra})


async def close_all(communicators):
    for communicator in communicators:
        await communicator.disconnect()


async def test_connect_sends_the_current_view_at_once(players):
    session = await start_table(players)
    sockets = [await connect(session.pk, user) for user in players]
    for seat, socket in enumerate(sockets):
        frames = await frames_until(socket, session.seq)
        _, state = await table_now(session.pk)
        shown = set(DATA_CARD.findall(frames[-1]))
        assert set(state.hand(seat)) <= shown
        assert not shown & hidden_from(state, seat)
    await close_all(sockets)


async def test_a_play_reaches_every_connection_and_spectators(players):
    session = await start_table(players)
    sockets = [await connect(session.pk, user) for user in players]
    watcher = await connect(session.pk)
    for socket in [*sockets, watcher]:
        await frames_until(socket, session.seq)
    _, state = await table_now(session.pk)
    card = state.legal_cards()[0]
    await sockets[state.to_act].send_to(text_data=play_frame(card, session.seq))
    for socket in [*sockets, watcher]:
        frames = await frames_until(socket, session.seq + 1)
        assert f'data-card="{card}"' in frames[-1]
    await close_all([*sockets, watcher])


@pytest.mark.parametrize("table", EVERY_GAME)
async def test_a_whole_session_over_websockets_never_shows_hidden_cards(players, table):
    session = await start_table(players, **table)
    sockets = [await connect(session.pk, user) for user in players]
    watcher = await connect(session.pk)
    viewers = [*enumerate(sockets), (None, watcher)]
    received = {seat: [] for seat, _ in viewers}
    hidden_at = {}  # seq -> seat -> cards in other hands at that moment
    moves = 0
    seeds = set()  # every seed drawn: none is ever sent to a table (only a finished deal's page shows it)
    while True:
        session, state = await table_now(session.pk)
        seeds |= await seeds_now(session.pk)
        hidden_at[session.seq] = {seat: hidden_from(state, seat) for seat, _ in viewers}
        for seat, socket in viewers:
            received[seat] += await frames_until(socket, session.seq)
        if session.status != GameSession.Status.PLAYING:
            break
        card = state.legal_cards()[moves % len(state.legal_cards())]
        mover = sockets[state.to_act]
        await mover.send_to(text_data=play_frame(card, session.seq))
        received[state.to_act] += await frames_until(mover, session.seq + 1)
        moves += 1
    for seat, socket in viewers:
        received[seat] += await drain(socket)
        await socket.disconnect()
    assert session.status == GameSession.Status.FINISHED
    assert moves == await database_sync_to_async(Play.objects.count)()
    assert len(seeds) >= await database_sync_to_async(Deal.objects.count)() > 0
    for seat, frames in received.items():
        for frame in frames:
            assert not any(seed in frame for seed in seeds)
            seq = frame_seq(frame)
            if seq is None:
                assert not DATA_CARD.findall(frame)
                continue
            leaked = set(DATA_CARD.findall(frame)) & hidden_at[seq][seat]
            assert not leaked, f"seat {seat} was shown {leaked} at seq {seq}"
    assert sum(len(frames) for frames in received.values()) > 4 * moves


@pytest.mark.parametrize(
    ("game", "seats", "options"),
    [("auction_forty_five", 4, {"rob_the_pack": True}), ("forty_five", 2, {})],
)
async def test_a_forty_five_session_over_websockets_never_shows_hidden_cards_or_discards(
    players, make_user, game, seats, options
):
    """Bids, holds, calls, discards, draws, takes and robs go over the socket like cards; no frame
    shows a seat another hand, the stock, or another seat's discard or take while the deal runs."""
    people = [*players, await database_sync_to_async(make_user)("dag")][:seats]
    session = await start_table(people, game=game, options=options)
    sockets = [await connect(session.pk, user) for user in people]
    viewers = list(enumerate(sockets))
    received = {seat: [] for seat, _ in viewers}
    hidden = {}
    moves = 0
    while True:
        session, state = await table_now(session.pk)
        secret = {call.split(":")[1] for call in state.calls if call.startswith(("discard:", "take:"))}
        hidden[session.seq] = {
            seat: (hidden_from(state, seat) | set(state.stock) | secret) - _own(state, seat) for seat, _ in viewers
        }
        for seat, socket in viewers:
            received[seat] += await frames_until(socket, session.seq)
        if session.status != GameSession.Status.PLAYING or moves > 1500:
            break
        legal = state.legal_actions()  # the auction and the draw by the rule of thumb, so the session ends
        action = get_game(game).rule_of_thumb(state) if state.trick is None else legal[moves % len(legal)]
        mover = sockets[state.to_act]
        await mover.send_to(text_data=json.dumps({"action": "play", "move": action, "seq": session.seq}))
        await frames_until(mover, session.seq + 1)
        received[state.to_act] += await frames_until(sockets[state.to_act], session.seq + 1)
        moves += 1
    await close_all(sockets)
    assert session.status == GameSession.Status.FINISHED
    assert moves == await database_sync_to_async(Play.objects.count)()
    for seat, frames in received.items():
        for frame in frames:
            seq = frame_seq(frame)
            if seq is not None:
                leaked = set(DATA_CARD.findall(frame)) & hidden[seq][seat]
                assert not leaked, f"seat {seat} was shown {leaked} at seq {seq}"
                assert not {f"discard:{card}" in frame for card in hidden[seq][seat]} - {False}


def _own(state, seat: int) -> set[str]:
    """What a seat may see of its own: its cards as dealt and now, its discards and takes; and the
    cards played or turned up."""
    calls = zip(state.calls, state.callers, strict=True)
    own = set(state.dealt[seat]) | set(state.hand(seat))
    own |= {call.split(":")[1] for call, who in calls if who == seat and ":" in call}
    played = {card for trick in (*state.tricks, state.trick) if trick for card in trick.cards}
    return own | played | ({state.upcard} if state.upcard else set())


async def test_stale_and_double_sends_are_answered_and_never_applied_twice(players):
    session = await start_table(players)
    sockets = [await connect(session.pk, user) for user in players]
    _, state = await table_now(session.pk)
    mover = sockets[state.to_act]
    await frames_until(mover, session.seq)
    card = state.legal_cards()[0]
    await mover.send_to(text_data=play_frame(card, session.seq))
    await mover.send_to(text_data=play_frame(card, session.seq))
    # The refusal comes with the current view in one frame, so the client re-syncs and the reason stays on show.
    refusal = await view_where(mover, lambda frame: "moved on" in frame)
    assert frame_seq(refusal) == session.seq + 1
    assert '<p id="table-message" class="message error"' in refusal
    assert await database_sync_to_async(Play.objects.count)() == 1
    await close_all(sockets)


@pytest.mark.parametrize(
    ("frame", "expected"),
    [
        ("{not json", "not understood"),
        (json.dumps(["play"]), "Unknown action"),
        (json.dumps({"action": "fold"}), "Unknown action"),
        (json.dumps({"action": "play", "card": "ZZ", "seq": 1}), "not understood"),
        (json.dumps({"action": "play", "card": "AS", "seq": "one"}), "not understood"),
    ],
)
async def test_malformed_frames_get_a_message_and_the_socket_stays_open(players, frame, expected):
    session = await start_table(players)
    socket = await connect(session.pk, players[0])
    await frames_until(socket, session.seq)
    await socket.send_to(text_data=frame)
    reply = await next_message(socket)
    assert expected in reply
    assert 'id="table-message"' in reply
    assert 'id="table"' not in reply
    assert await database_sync_to_async(Play.objects.count)() == 0
    # Still open: a valid move goes through afterwards.
    _, state = await table_now(session.pk)
    if state.to_act == 0:
        await socket.send_to(text_data=play_frame(state.legal_cards()[0], session.seq))
        await frames_until(socket, session.seq + 1)
        assert await database_sync_to_async(Play.objects.count)() == 1
    await socket.disconnect()


async def test_out_of_turn_and_illegal_cards_name_the_problem(players):
    session = await start_table(players)
    sockets = [await connect(session.pk, user) for user in players]
    _, state = await table_now(session.pk)
    waiting = (state.to_act + 1) % 3
    await frames_until(sockets[waiting], session.seq)
    await sockets[waiting].send_to(text_data=play_frame(state.hand(waiting)[0], session.seq))
    assert "not your turn" in await next_message(sockets[waiting])
    mover = sockets[state.to_act]
    await frames_until(mover, session.seq)
    not_held = next(card for card in ("AS", "2C", "KH", "7D", "9S", "3H") if card not in state.hand(state.to_act))
    await mover.send_to(text_data=play_frame(not_held, session.seq))
    assert "not in your hand" in await next_message(mover)
    assert await database_sync_to_async(Play.objects.count)() == 0
    await close_all(sockets)


async def test_anonymous_watchers_cannot_play(players):
    session = await start_table(players)
    watcher = await connect(session.pk)
    await frames_until(watcher, session.seq)
    _, state = await table_now(session.pk)
    await watcher.send_to(text_data=play_frame(state.legal_cards()[0], session.seq))
    assert "Log in" in await next_message(watcher)
    assert await database_sync_to_async(Play.objects.count)() == 0
    await watcher.disconnect()


async def test_cross_origin_handshake_is_rejected(players):
    session = await start_table(players)
    communicator = WebsocketCommunicator(
        application, f"/ws/tables/{session.pk}/", headers=[(b"origin", b"http://evil.example")]
    )
    connected, _ = await communicator.connect(timeout=30)
    assert not connected


async def test_unknown_table_is_refused(players):
    communicator = WebsocketCommunicator(
        application, "/ws/tables/999999/", headers=[(b"origin", b"http://localhost"), (b"host", b"localhost")]
    )
    connected, code = await communicator.connect(timeout=30)
    assert not connected
    assert code == 4404


async def test_presence_shows_who_is_connected(players):
    session = await start_table(players)
    first = await connect(session.pk, players[0])
    await view_where(first, lambda frame: frame.count('class="presence online"') == 1)
    second = await connect(session.pk, players[1])
    update = await frame_where(first, lambda frame: frame.count('class="presence online"') == 2)
    assert 'id="table"' not in update  # a small presence fragment, not the whole table again
    assert 'hx-swap-oob="true"' in update
    assert await database_sync_to_async(Connection.objects.count)() == 2
    await second.disconnect()
    await frame_where(first, lambda frame: frame.count('class="presence online"') == 1)
    await first.disconnect()
    assert await database_sync_to_async(Connection.objects.count)() == 0


async def test_spectators_coming_and_going_send_nothing_to_the_table(players):
    session = await start_table(players)
    player = await connect(session.pk, players[0])
    await frames_until(player, session.seq)
    await frame_where(player, lambda frame: 'hx-swap-oob="true"' in frame)  # its own arrival, told to the table
    watchers = [await connect(session.pk) for _ in range(3)]
    for watcher in watchers:
        await frames_until(watcher, session.seq)
        await watcher.disconnect()
    assert await player.receive_nothing(timeout=0.6)
    await player.disconnect()


async def test_computers_move_by_themselves_and_a_session_runs_to_the_end(players):
    session = await start_table(players[:1], computers=3)
    start_seq = session.seq
    socket = await connect(session.pk, players[0])
    frames = []
    moves = 0
    while True:
        session, state = await table_now(session.pk)
        if session.status != GameSession.Status.PLAYING:
            break
        if state.to_act != 0:
            # The driver plays for the computers; wait for the table to move on.
            frames += await frames_until(socket, session.seq + 1)
            continue
        frames += await frames_until(socket, session.seq)
        await socket.send_to(text_data=play_frame(state.legal_cards()[0], session.seq))
        frames += await frames_until(socket, session.seq + 1)
        moves += 1
    frames += await drain(socket)
    await socket.disconnect()
    assert session.status == GameSession.Status.FINISHED
    assert moves >= 15
    assert len(await hidden_at(session.pk, start_seq, start_seq, 0)) == 15
    for frame in frames:
        seq = frame_seq(frame)
        if seq is not None:
            assert not set(DATA_CARD.findall(frame)) & await hidden_at(session.pk, start_seq, seq, 0)


async def test_a_table_left_on_a_computers_turn_resumes_when_someone_connects(players):
    host = players[0]

    @database_sync_to_async
    def left_on_computer_turn():
        session = services.table_create(host=host, seats=3)
        for position in (1, 2):
            services.computer_add(session_id=session.pk, user=host, position=position)
        return services.session_start(session_id=session.pk, user=host)

    session = await left_on_computer_turn()
    watcher = await connect(session.pk)
    await table_when(session.pk, lambda _, state: state.to_act == 0)  # the computers played on
    await watcher.disconnect()


async def test_pushed_views_offer_the_same_actions_as_the_page(players):
    @database_sync_to_async
    def waiting_table():
        return services.table_create(host=players[0], seats=4)

    session = await waiting_table()
    guest = await connect(session.pk, players[1])
    host = await connect(session.pk, players[0])
    guest_view = await view_where(guest, lambda frame: True)
    host_view = await view_where(host, lambda frame: True)
    assert "Sit here" in guest_view
    assert "Add computer" not in guest_view
    assert "Add computer" in host_view
    assert "Close the table" in host_view
    await guest.disconnect()
    await host.disconnect()


async def test_presence_rows_of_a_dead_process_age_out(players):
    from datetime import timedelta

    from django.utils import timezone

    session = await start_table(players)
    first = await connect(session.pk, players[0])
    await view_where(first, lambda frame: frame.count('class="presence online"') == 1)

    @database_sync_to_async
    def process_died_long_ago():
        Connection.objects.create(session_id=session.pk, user=players[1], channel_name="gone!1")
        Connection.objects.filter(channel_name="gone!1").update(seen=timezone.now() - timedelta(minutes=5))

    await process_died_long_ago()
    second = await connect(session.pk, players[2])
    frame = await frame_where(first, lambda frame: frame.count('class="presence online"') == 2)
    assert '<span id="presence-1" class="presence"' in frame  # its only connection went quiet five minutes ago
    await first.disconnect()
    await second.disconnect()


BOODLES = {"AH", "KC", "QD", "JS"}


@pytest.mark.parametrize("options", [{}, {"ante_spread": True}])
async def test_a_michigan_session_over_websockets_never_shows_another_hand_or_a_card_out_of_play(players, options):
    """Antes, the widow's sale, offers, passes and cards go over the socket; no frame shows a seat a
    card it may not see (another hand, the widow, the cards out of play; its own before the antes)."""
    session = await start_table(players, game="michigan", options=options)
    sockets = [await connect(session.pk, user) for user in players]
    rules = get_game("michigan")
    rng = random.Random(6)

    def choose(state, moves: int) -> str:
        return rules.rule_of_thumb(state) if moves % 2 else rng.choice(state.legal_actions())

    def hidden(state, seat: int) -> set[str]:
        seen = (state.hands[seat] if state.phase != "ante" else 0) | state.gone
        return {card for index, card in enumerate(CARDS) if not seen >> index & 1}

    session, received, hidden_at, moves = await session_over_sockets(session.pk, sockets, choose, hidden)
    assert session.status == GameSession.Status.FINISHED
    assert moves == await database_sync_to_async(Play.objects.count)()
    shown = set()
    for seat, frames in received.items():
        for frame in frames:
            seq = frame_seq(frame)
            if seq is not None:
                found = DATA_CARD.findall(frame)
                cards = set(found)
                assert not (cards - BOODLES) & hidden_at[seq][seat], (seat, seq, cards & hidden_at[seq][seat])
                for boodle in BOODLES & cards:  # the boodles lie beside the table from a second pack: once
                    assert found.count(boodle) <= 1 + (boodle not in hidden_at[seq][seat]), (seat, seq, boodle)
                shown |= cards
    assert len(shown) > 20


def _page_now(session_id: int, seq: int, user) -> str | None:
    """The table at ``seq`` as the consumer renders it whole, from this process's snapshot (no read)."""
    from games.selectors import table_view
    from games.table_html import table_html

    snapshot = snapshots.peek(session_id)
    if snapshot is None or snapshot.seq != seq:
        return None
    with translation.override("en"):
        return timeless(table_html(table_view(snapshot, user, snapshots.online(session_id))))


@pytest.mark.parametrize(
    "table", [pytest.param({}, id="femkort"), pytest.param({"game": "michigan", "options": {}}, id="michigan")]
)
async def test_frames_carry_only_what_changed_and_the_page_they_build_is_the_table(players, table):
    """After the first view a socket gets only the regions that changed; swapped into the page they
    build exactly the table a fresh page shows, at every move of a whole session, and the frames
    are a fraction of the whole table's size."""
    for user in players:  # each socket renders in its player's language: the same one here as in the test
        user.language = "en"
        await database_sync_to_async(user.save)(update_fields=["language"])
    session = await start_table(players, **table)
    sockets = [await connect(session.pk, user) for user in players]
    rng = random.Random(3)
    rules = get_game(session.game)
    sent = whole = checked = moves = 0
    while True:
        session, state = await table_now(session.pk)
        for socket, user in zip(sockets, players, strict=True):
            frames = await frames_until(socket, session.seq)
            if frames and frame_seq(frames[-1]) == session.seq and session.status == GameSession.Status.PLAYING:
                page = timeless(frames[-1][: frames[-1].index('<p id="table-message"')])
                expected = _page_now(session.pk, session.seq, user)
                if expected is not None:
                    assert page == expected
                    checked += 1
        if session.status != GameSession.Status.PLAYING or checked > 240:
            break
        moves += 1
        assert moves < 400, "the session does not move on"
        legal = state.legal_actions()
        action = rules.rule_of_thumb(state) if rules.has_rule_of_thumb and rng.random() < 0.5 else rng.choice(legal)
        mover = sockets[state.to_act]
        await mover.send_to(text_data=json.dumps({"action": "play", "move": action, "seq": session.seq}))
        await frames_until(mover, session.seq + 1)
    for socket in sockets:
        views = [(raw, socket.whole_of[i]) for i, raw in enumerate(socket.raw) if frame_seq(raw) is not None]
        sent += sum(len(raw) for raw, _ in views[1:])
        whole += sum(len(page) for _, page in views[1:])
    await close_all(sockets)
    assert checked > 30
    assert sent < 0.8 * whole, f"frames carried {sent / whole:.2f} of the whole tables' bytes"
