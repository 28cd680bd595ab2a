"""Redis goes away under a production server and comes back: moves still count, computers still play.

The server reaches Redis through a loopback forwarder, so the test can cut it off (nothing
listens there any more) and then restore it, as a real outage and recovery would.
"""

import os
import re
import urllib.request
from urllib.parse import urlsplit

import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus

from games import services
from games.models import GameSession, Play
from games.stored import deal_state
from tests.live_helpers import frame_seq, session_cookie
from tests.servers import (
    TcpProxy,
    daphne,
    manage,
    next_view,
    production_env,
    server_database_url,
    shared_services_or_skip,
    table_socket,
)
from tests.site_helpers import started_table

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]  # starts servers
CSRF = re.compile(r'"X-CSRFToken": "([^"]+)"')


def close_code(client) -> int:
    try:
        while True:
            client.recv(timeout=10)
    except ConnectionClosed as closed:
        return closed.rcvd.code


def post_card(base: str, session: GameSession, user) -> tuple[int, str]:
    """Play the mover's first legal card the way the page does when its socket is down: an htmx POST."""
    cookie = session_cookie(user).decode()
    page = urllib.request.urlopen(urllib.request.Request(f"{base}/tables/{session.pk}/", headers={"Cookie": cookie}))
    csrf_cookie = page.headers["Set-Cookie"].split(";")[0]
    token = CSRF.search(page.read().decode()).group(1)
    session.refresh_from_db()
    card = deal_state(session.deals.order_by("-number").first()).legal_cards()[0]
    request = urllib.request.Request(
        f"{base}/tables/{session.pk}/play/",
        data=f"card={card}&seq={session.seq}".encode(),
        headers={"Cookie": f"{cookie}; {csrf_cookie}", "X-CSRFToken": token, "HX-Request": "true"},
    )
    response = urllib.request.urlopen(request, timeout=10)
    return response.status, response.read().decode()


def test_a_redis_outage_costs_live_updates_only_and_the_table_recovers(players, tmp_path):
    shared_services_or_skip()
    anna, bjorn = players[:2]
    session = started_table([anna, bjorn], computers=1)
    services.computers_play_all(session_id=session.pk)
    redis = urlsplit(os.environ["REDIS_URL"])
    proxy = TcpProxy((redis.hostname, redis.port or 6379))
    proxy.start()
    env = production_env(
        tmp_path / "static",
        DATABASE_URL=server_database_url(tmp_path),
        REDIS_URL=f"redis://127.0.0.1:{proxy.port}{redis.path or '/0'}",
    )
    manage("collectstatic", "--noinput", env=env)
    with daphne(env) as base:
        with table_socket(base, session.pk, anna) as live:
            next_view(live)
            proxy.stop()  # Redis is gone: the socket is closed so the page reconnects later and polls meanwhile
            assert close_code(live) == 1011  # "try again": browsers reconnect with a growing pause
        with pytest.raises(InvalidStatus):  # a new socket is refused while Redis is away
            table_socket(base, session.pk, anna)

        played = Play.objects.count()
        for _ in range(4):  # people play over HTTP; the computer answers as well
            session.refresh_from_db()
            mover = session.seats.get(position=deal_state(session.deals.order_by("-number").first()).to_act).user
            status, fragment = post_card(base, session, mover)
            assert status == 200
            assert 'id="table"' in fragment
        assert Play.objects.count() >= played + 5  # four people's cards and at least one computer's

        proxy.start()  # Redis is back: sockets connect again and get every move live
        session.refresh_from_db()
        with table_socket(base, session.pk, anna) as watcher, table_socket(base, session.pk, bjorn) as other:
            assert frame_seq(next_view(watcher)) == session.seq
            next_view(other)
            state = deal_state(session.deals.order_by("-number").first())
            mover = session.seats.get(position=state.to_act).user
            services.action_take(session_id=session.pk, user=mover, action=state.legal_cards()[0], seen_seq=session.seq)
            assert frame_seq(next_view(watcher)) >= session.seq + 1
