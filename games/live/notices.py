"""A signed-in player's news on every page that is not a table (a table's own socket brings it
there): a new invitation shows at once as a toast, and the player counts as online.

The socket takes nothing from the browser; what it sends is read for its player alone.
"""

from __future__ import annotations

from femkort_site.proxies import scope_client_address
from games.threads import db

from .base import LiveConsumer
from .connections import connection_open

NOT_SIGNED_IN = 4403
TOO_MANY = 4429


class NoticeConsumer(LiveConsumer):
    session_id = None  # no table: ``sockets`` hands it only its player's news
    sent_seq = 0

    async def connect(self) -> None:
        user = self.scope["user"]
        if not user.is_authenticated:
            await self._refuse(NOT_SIGNED_IN)
            return
        self.user_id = user.pk
        self.session_key = self.scope["session"].session_key
        verdict = await db(connection_open)(
            user=user, ip=scope_client_address(self.scope), channel_name=self.channel_name
        )
        if verdict != "ok":  # too many tabs, or too many reconnections: the header still counts on each page
            await self._refuse(TOO_MANY)
            return
        if await self._join():
            await self.accept()

    async def _refuse(self, code: int) -> None:
        """Accepted, then closed with ``code``: a socket closed before it was accepted looks to the
        browser like a network failure (1006), which htmx answers by trying again and again."""
        await self.accept()
        await self.close(code=code)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """Nothing is asked of this socket; whatever comes is ignored."""
