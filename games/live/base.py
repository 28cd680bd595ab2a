"""What every live socket shares: the consumer loop fed by this process's listener (``sockets``),
its player's language, news for its player, and a quiet end when the browser is already gone."""

from __future__ import annotations

import asyncio
import functools
import logging
import uuid
from types import SimpleNamespace

from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.layers import get_channel_layer
from channels.utils import await_many_dispatch
from django.utils import translation

from games.notice_html import invitation_notice, my_tables_link, table_ready_notice
from games.threads import db

from . import sockets
from .cancelling import honour_cancel
from .connections import connection_close
from .logins import SIGNED_OUT, login_holds

log = logging.getLogger(__name__)


class LiveConsumer(AsyncWebsocketConsumer):
    user_id: int | None = None
    session_key: str | None = None  # the signed-in player's login, which this socket lives no longer than
    joined = False
    left = False

    async def __call__(self, scope, receive, send) -> None:
        """Channels' consumer loop, fed by the browser and by this process's listener (``sockets``)."""
        self.scope = scope
        self.channel_layer = get_channel_layer(self.channel_layer_alias)
        self.channel_name = f"table-socket.{uuid.uuid4().hex}"  # names the presence row; messages come via nudges
        self.base_send = functools.partial(_send_or_stop, send)
        self.nudges: asyncio.Queue = asyncio.Queue()
        self.language = socket_language(scope)
        try:
            await await_many_dispatch([receive, self.nudges.get], self.dispatch)
        except StopConsumer:
            pass
        except Exception as error:  # the channel layer went away, or a handler broke
            log.warning("socket %s ended: %r", scope.get("path"), error)
            raise  # daphne closes it with 1011: the page polls, and reconnects with a growing pause
        finally:
            await self._leave()

    async def dispatch(self, message: dict) -> None:
        """Everything this socket renders is in its own player's language, whatever the others use."""
        with translation.override(self.language):
            await super().dispatch(message)
        honour_cancel()  # a cancel a handler's Redis call swallowed would leave the socket's loop waiting

    async def player_invited(self, event: dict) -> None:
        """A new invitation for this socket's player: a toast with Join / No thanks, and the header's count."""
        invitation = event.get("invitation")
        if self.user_id is None or not isinstance(invitation, int):
            return
        html = await db(invitation_notice)(self.scope["user"], invitation)
        if html:
            await self.send(text_data=html)

    async def player_table_ready(self, event: dict) -> None:
        """A tournament seated this socket's player: a toast with the way to the table."""
        session = event.get("session")
        if self.user_id is None or not isinstance(session, int):
            return
        html = await db(table_ready_notice)(self.user_id, session)
        if html:
            await self.send(text_data=html)

    async def player_turns(self, event: dict) -> None:
        """A turn-based table of this socket's player moved: the header counts the tables waiting on them again."""
        if self.user_id is not None:
            await self.send(text_data=await db(my_tables_link)(self.user_id))

    async def player_login_changed(self, event: dict) -> None:
        """This socket's player logged out somewhere, changed the password or lost the account."""
        key = event.get("session_key")
        if key is not None and key != self.session_key:
            return  # another browser's session logged out: this one's login still holds
        if key is not None or not await db(login_holds)(self.session_key, self.user_id):
            await self._signed_out()

    async def _signed_out(self) -> None:
        await self.close(code=SIGNED_OUT)
        raise StopConsumer

    async def layer_lost(self, event: dict) -> None:
        raise ConnectionError("the channel layer is unreachable")

    async def disconnect(self, code: int) -> None:
        await self._leave()

    async def _join(self) -> bool:
        """Hand this socket its broadcasts; with the channel layer away, refuse it instead (the page
        polls, and tries again with a growing pause)."""
        self.joined = True
        try:
            await sockets.join(self)
        except Exception as error:
            log.warning("%s: no live updates while the channel layer is down: %r", self.scope.get("path"), error)
            await self.close()
            return False
        return True

    async def _leave(self) -> None:
        """Every way out ends here, once: out of the groups, presence row gone, others told."""
        if not self.joined or self.left:
            return
        self.left = True
        await sockets.leave(self)
        try:
            await db(self._forget)()
        except Exception as error:  # the row stops counting once it is not seen for a while
            log.warning("%s: could not remove presence: %r", self.scope.get("path"), error)
        await self._gone()

    def _forget(self) -> None:
        connection_close(self.channel_name)

    async def _gone(self) -> None:
        """Tell whoever should know that this socket left (nobody, unless a subclass says)."""


def socket_language(scope: dict) -> str:
    """The signed-in player's chosen language, else the browser's cookie or Accept-Language."""
    user = scope.get("user")
    chosen = getattr(user, "language", "") if user is not None and user.is_authenticated else ""
    if chosen:
        return chosen
    headers = dict(scope.get("headers") or [])
    request = SimpleNamespace(
        COOKIES=scope.get("cookies") or {},
        META={"HTTP_ACCEPT_LANGUAGE": headers.get(b"accept-language", b"").decode("latin-1")},
    )
    return translation.get_language_from_request(request)


async def _send_or_stop(send, message: dict) -> None:
    """A socket the browser, or daphne after its handshake timeout, has already closed ends the consumer quietly."""
    try:
        await send(message)
    except Exception as error:
        log.info("a socket was gone before %s: %r", message.get("type"), error)
        raise StopConsumer from error
