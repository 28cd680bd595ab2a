"""Websocket test clients: logged-in communicators and frame parsing."""

from __future__ import annotations

import asyncio
import json
import re
import time

from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from femkort_site.asgi import application
from games.models import GameSession
from games.stored import deal_state

DATA_CARD = re.compile(r'data-card="([2-9TJQKA][SHDC])"')
SEQ = re.compile(r'id="table(?:-state)?"[^>]*data-seq="(\d+)"', re.S)


REGION = re.compile(r"<!--r:([\w-]+)-->.*?<!--/r-->", re.S)
MESSAGE = '<p id="table-message"'


class TablePage(WebsocketCommunicator):
    """A websocket client that keeps the table as a browser would: a frame of the regions that
    changed is swapped into the table it shows, so every view reaches the test whole, as the page
    has it then (``raw`` keeps the frames as sent)."""

    table: str | None = None

    async def receive_from(self, timeout: float = 1) -> str:
        frame = await super().receive_from(timeout)
        page = self.whole(frame)
        self.raw = [*getattr(self, "raw", []), frame]
        self.whole_of = [*getattr(self, "whole_of", []), page]
        return page

    def whole(self, frame: str) -> str:
        if '<div id="table"' in frame:
            self.table = frame[: frame.index(MESSAGE)] if MESSAGE in frame else frame
            return frame
        if not REGION.search(frame):
            return frame  # a message, presence, a chat line
        assert self.table is not None, "a frame of changed regions before any whole table"
        self.table = swapped_in(self.table, frame)
        return self.table + REGION.sub("", frame)


def swapped_in(page: str, frame: str) -> str:
    """The table ``page`` after a frame of regions, as the browser has it (each by its id, then
    #table takes its state from #table-state)."""
    for match in REGION.finditer(frame):
        pattern = rf"<!--r:{re.escape(match.group(1))}-->.*?<!--/r-->"
        page, found = re.subn(pattern, _replacement(match.group(0)), page, count=1, flags=re.S)
        assert found, f"region {match.group(1)} is not on the page"
    return _with_state(page)


def timeless(html: str) -> str:
    """The table without its server time, #table's attributes in one order (table.js sets them)."""
    html = re.sub(r'data-now="\d+"', "", html)
    html = re.sub(r"\?seq=\d+", "?seq=", html, count=1)  # the poll's: a stale one is answered with the whole table
    html = re.sub(r'<span id="presence-\d+"[^>]*>[^<]*</span>', "", html)  # told by presence frames of their own
    opening = re.search(r'<div id="table"([^>]*)>', html)
    attributes = sorted(re.findall(r'[\w-]+(?:="[^"]*")?', opening.group(1)))
    return html[: opening.start()] + f"<div {' '.join(attributes)}>" + html[opening.end() :]


def _replacement(text: str):
    return lambda _: text


def _with_state(page: str) -> str:
    """What table.js does after a frame of regions: #table takes its state from #table-state."""
    state = re.search(r'<div id="table-state"[^>]*>', page).group()
    opening = re.search(r'<div id="table"[^>]*>', page)
    tag = opening.group()
    for name in ("seq", "now", "title"):
        value = re.search(rf'data-{name}="([^"]*)"', state)
        if value:
            tag = re.sub(rf'data-{name}="[^"]*"', _replacement(f'data-{name}="{value.group(1)}"'), tag)
    tag = tag.replace(" data-my-turn", "")
    if " data-my-turn" in state:
        tag = tag.replace(' data-title="', ' data-my-turn data-title="', 1)
    return page[: opening.start()] + tag + page[opening.end() :]


def session_cookie(user) -> bytes:
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}".encode()


async def connect(session_id: int, user=None, origin: bytes = b"http://localhost") -> WebsocketCommunicator:
    headers = [(b"origin", origin), (b"host", b"localhost")]
    if user is not None:
        headers.append((b"cookie", await database_sync_to_async(session_cookie)(user)))
    communicator = TablePage(application, f"/ws/tables/{session_id}/", headers=headers)
    connected, _ = await communicator.connect(timeout=30)
    assert connected
    return communicator


def frame_seq(frame: str) -> int | None:
    match = SEQ.search(frame)
    return int(match.group(1)) if match else None


async def frames_until(communicator: WebsocketCommunicator, seq: int, timeout: float = 30) -> list[str]:
    """Every frame up to and including the first table view at ``seq`` or later (none if already seen)."""
    frames: list[str] = []
    while getattr(communicator, "seen_seq", -1) < seq:
        frame = await communicator.receive_from(timeout=timeout)
        frames.append(frame)
        shown = frame_seq(frame)
        if shown is not None:
            communicator.seen_seq = max(shown, getattr(communicator, "seen_seq", -1))
    return frames


async def drain(communicator: WebsocketCommunicator) -> list[str]:
    frames = []
    while not await communicator.receive_nothing(timeout=0.05):
        frames.append(await communicator.receive_from())
        shown = frame_seq(frames[-1])
        if shown is not None:
            communicator.seen_seq = max(shown, getattr(communicator, "seen_seq", -1))
    return frames


@database_sync_to_async
def table_now(session_id: int) -> tuple[GameSession, object]:
    session = GameSession.objects.get(pk=session_id)
    deal = session.deals.order_by("-number").first()
    return session, deal_state(deal) if deal else None


async def table_when(session_id: int, test, timeout: float = 60) -> tuple[GameSession, object]:
    """The table once ``test(session, state)`` holds: computers move on their own clock, so the
    test waits for the move it means, however slowly a busy machine makes it."""
    deadline = time.monotonic() + timeout
    while True:
        session, state = await table_now(session_id)
        if test(session, state):
            return session, state
        if time.monotonic() > deadline:
            raise AssertionError(f"the table never got there; it is at seq {session.seq}")
        await asyncio.sleep(0.05)


async def session_over_sockets(session_id: int, sockets: list, choose, hidden) -> tuple:
    """Play a whole session through the seats' sockets: ``choose(state, moves)`` picks each move,
    ``hidden(state, seat)`` says what that seat may not see at each moment. Returns the session,
    every frame each seat received, what was hidden from whom at each sequence number, and the
    number of moves."""
    hidden_at, received, moves = {}, {seat: [] for seat in range(len(sockets))}, 0
    while True:
        session, state = await table_now(session_id)
        hidden_at[session.seq] = {seat: hidden(state, seat) for seat in range(len(sockets))}
        for seat, socket in enumerate(sockets):
            received[seat] += await frames_until(socket, session.seq)
        if session.status != GameSession.Status.PLAYING:
            break
        frame = json.dumps({"action": "play", "card": choose(state, moves), "seq": session.seq})
        await sockets[state.to_act].send_to(text_data=frame)
        received[state.to_act] += await frames_until(sockets[state.to_act], session.seq + 1)
        moves += 1
    for seat, socket in enumerate(sockets):
        received[seat] += await drain(socket)
        await socket.disconnect()
    return session, received, hidden_at, moves


def hidden_from(state, seat: int | None) -> set[str]:
    """Cards still in other seats' hands and not turned face up: never to be shown to ``seat``."""
    public = {card for _, card in state.rules.face_up(state)}
    return {card for other in state.seats if other != seat for card in state.hand(other)} - public


async def next_message(communicator: WebsocketCommunicator, timeout: float = 30) -> str:
    """The next frame meant for this connection alone: its message line (not a table view, nor
    a presence update, which may arrive in between at any time)."""
    while True:
        frame = await communicator.receive_from(timeout=timeout)
        if frame_seq(frame) is None and 'id="table-message"' in frame:
            return frame


async def frame_where(communicator: WebsocketCommunicator, test, timeout: float = 30) -> str:
    """The next frame of any kind (a table view, a presence update, a message) for which ``test(frame)`` holds."""
    while True:
        frame = await communicator.receive_from(timeout=timeout)
        if test(frame):
            return frame


async def view_where(communicator: WebsocketCommunicator, test, timeout: float = 30) -> str:
    """The next table view for which ``test(frame)`` holds."""
    while True:
        frame = await communicator.receive_from(timeout=timeout)
        if frame_seq(frame) is not None and test(frame):
            return frame


@database_sync_to_async
def hidden_at(session_id: int, start_seq: int, seq: int, seat: int | None) -> set[str]:
    """Cards hidden from ``seat`` when the table was at ``seq`` (each card played moves seq by one)."""
    session = GameSession.objects.get(pk=session_id)
    left = seq - start_seq
    for deal in session.deals.order_by("number"):
        cards = list(deal.plays.values_list("action", flat=True))
        if left < len(cards) or deal.winner is None:
            return hidden_from(deal_state(deal, cards[:left]), seat)
        left -= len(cards)
    return set()
