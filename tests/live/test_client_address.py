"""Whose address a request comes from: the peer, unless DJANGO_PROXY_COUNT says proxies stand in
front; a client that reaches the site directly cannot choose its address by writing X-Forwarded-For
(not for login throttling, not for the socket limits per address)."""

from __future__ import annotations

import contextlib
import re
import urllib.error
import urllib.request

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect as ws_connect

from femkort_site.proxies import client_address, scope_client_address
from games import services
from tests.servers import make_serve, manage, production_env, server_database_url, shared_services_or_skip

CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


@pytest.mark.parametrize(
    ("proxies", "forwarded", "expected"),
    [
        (0, "198.51.100.7", "10.0.0.2"),  # no proxy: the header is the client's own writing
        (1, "198.51.100.7", "198.51.100.7"),
        (1, "203.0.113.9, 198.51.100.7", "198.51.100.7"),  # the client wrote the left entry
        (2, "203.0.113.9, 198.51.100.7, 10.0.0.5", "198.51.100.7"),
        (2, "198.51.100.7", "10.0.0.2"),  # fewer entries than proxies: it came round them
        (1, "not an address", "10.0.0.2"),
        (1, "", "10.0.0.2"),
        (1, " 2001:db8::1 ", "2001:db8::1"),
    ],
)
def test_the_client_is_as_many_entries_from_the_right_as_there_are_proxies(settings, proxies, forwarded, expected):
    settings.PROXY_COUNT = proxies
    assert client_address("10.0.0.2", forwarded) == expected


def test_a_sockets_header_lines_count_as_one_list(settings):
    settings.PROXY_COUNT = 1
    headers = [(b"x-forwarded-for", b"203.0.113.9"), (b"X-Forwarded-For", b"198.51.100.7")]
    assert scope_client_address({"client": ("10.0.0.2", 5555), "headers": headers}) == "198.51.100.7"
    assert scope_client_address({"client": None, "headers": []}) is None


def close_code(client) -> int:
    try:
        while True:
            client.recv(timeout=30)
    except ConnectionClosed as closed:
        return closed.rcvd.code


def _cookies(response) -> dict[str, str]:
    return dict(header.split(";")[0].split("=", 1) for header in response.headers.get_all("Set-Cookie") or [])


def _wrong_password(base: str, forged: str) -> int:
    page = urllib.request.urlopen(f"{base}/accounts/login/", timeout=30)
    cookies = _cookies(page)
    token = CSRF.search(page.read().decode()).group(1)
    request = urllib.request.Request(
        f"{base}/accounts/login/",
        data=f"username=anna&password=wrong&csrfmiddlewaretoken={token}".encode(),
        headers={"Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items()), "X-Forwarded-For": forged},
    )
    try:
        return urllib.request.urlopen(request, timeout=30).status
    except urllib.error.HTTPError as error:
        return error.code


@pytest.mark.slow  # starts the server
@pytest.mark.django_db(transaction=True)
def test_make_serve_without_a_proxy_ignores_forwarded_for(tmp_path, make_user, settings):
    shared_services_or_skip()
    make_user("anna")
    visitors_table = services.table_create(host=make_user("host"), seats=4)
    env = production_env(tmp_path / "static", DATABASE_URL=server_database_url(tmp_path))
    manage("collectstatic", "--noinput", env=env)
    with make_serve(env) as base:
        answers = [_wrong_password(base, f"198.51.100.{n}") for n in range(settings.AXES_FAILURE_LIMIT)]
        assert answers == [200] * (settings.AXES_FAILURE_LIMIT - 1) + [429]  # one address, whatever it wrote
        url = base.replace("http", "ws") + f"/ws/tables/{visitors_table.pk}/"
        allowed = settings.FEMKORT_ANONYMOUS_SOCKETS_PER_TABLE
        with contextlib.ExitStack() as sockets:
            opened = [
                sockets.enter_context(
                    ws_connect(url, additional_headers={"Origin": base, "X-Forwarded-For": f"203.0.113.{n}"})
                )
                for n in range(allowed + 1)
            ]
            refused = opened[-1]
            assert "too many live connections" in refused.recv(timeout=30)
            assert close_code(refused) == 4429
