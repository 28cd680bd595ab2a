"""The stack floor: ``tools.bench_load``'s load against a bare Channels consumer on the same stack
(daphne, channels-redis, Redis, PostgreSQL, the site's connection pool), so the project's figures
always stand beside what the stack alone carries in the same run.

Run by ``tools.bench_load`` (``--stacks project,floor``); by hand::

    DJANGO_SETTINGS_MODULE=tools.bench_floor_settings DATABASE_URL=... REDIS_URL=... \\
        python -m tools.bench_server -b 127.0.0.1 -p 8002 tools.bench_floor:application

It does the least a live card table must: a table is a row (``bench_floor_table``: id, seq); a
move is one compare-and-set ``UPDATE ... WHERE seq = N`` (as the project's common move), then one
``group_send`` of the new seq; every socket of the table answers it with a frame of
``FLOOR_FRAME_BYTES`` (the bench passes the project's mean frame size) naming the seq and, for the
seat to play (seq mod 4), one card button. Seat 3 is the computer: the process that made the move
before its turn plays it after ``FEMKORT_COMPUTER_PAUSE`` seconds. A socket's seat comes from its
cookie (``floorseat=<n>``). No rules, no rendering, no presence, no logins.
"""

from __future__ import annotations

import asyncio
import json
import os

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.routing import ProtocolTypeRouter, URLRouter
from django.core.asgi import get_asgi_application
from django.db import connection
from django.urls import path

SEATS = 4
COMPUTER = 3
TABLE = "bench_floor_table"
urlpatterns: list = []  # every page answers 404: the bench's readiness check takes any answer


def frame(seq: int, seat: int) -> str:
    """A view of the project's mean size: the seq, and the one card the seat to play may play."""
    size = int(os.environ.get("FLOOR_FRAME_BYTES", "8300"))
    button = '<button name="move" value="2C">2C</button>' if seq % SEATS == seat else ""
    head = f'<div id="table" class="table" data-seq="{seq}">{button}<p>'
    return head + "x" * max(0, size - len(head) - 10) + "</p></div>"


def _seq(table: int) -> int:
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT seq FROM {TABLE} WHERE id = %s", [table])
        return cursor.fetchone()[0]


def _move(table: int, seq: int) -> bool:
    """One compare-and-set: the move counts only if nobody moved first."""
    with connection.cursor() as cursor:
        cursor.execute(f"UPDATE {TABLE} SET seq = seq + 1 WHERE id = %s AND seq = %s", [table, seq])
        return cursor.rowcount == 1


class FloorConsumer(AsyncWebsocketConsumer):
    async def connect(self) -> None:
        self.table = int(self.scope["url_route"]["kwargs"]["table"])
        cookies = dict(self.scope.get("headers") or []).get(b"cookie", b"").decode()
        self.seat = int(dict(part.strip().split("=", 1) for part in cookies.split(";") if "=" in part)["floorseat"])
        self.group = f"floor-{self.table}"
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self.send(text_data=frame(await database_sync_to_async(_seq)(self.table), self.seat))

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        seq = json.loads(text_data or "{}").get("seq")
        if isinstance(seq, int) and await database_sync_to_async(_move)(self.table, seq):
            await moved(self.channel_layer, self.table, seq + 1)

    async def table_changed(self, event: dict) -> None:
        await self.send(text_data=frame(event["seq"], self.seat))


async def moved(layer, table: int, seq: int) -> None:
    await layer.group_send(f"floor-{table}", {"type": "table.changed", "seq": seq})
    if seq % SEATS == COMPUTER:
        asyncio.get_running_loop().call_later(
            float(os.environ.get("FEMKORT_COMPUTER_PAUSE", "0.3")),
            lambda: asyncio.ensure_future(_computer(layer, table, seq)),
        )


async def _computer(layer, table: int, seq: int) -> None:
    if await database_sync_to_async(_move)(table, seq):
        await moved(layer, table, seq + 1)


application = ProtocolTypeRouter(
    {
        "http": get_asgi_application(),
        "websocket": URLRouter([path("ws/tables/<int:table>/", FloorConsumer.as_asgi())]),
    }
)
