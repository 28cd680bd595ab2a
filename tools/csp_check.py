"""Open every kind of page in headless Chromium and report Content-Security-Policy violations.

    .venv/bin/python -m tools.csp_check [--production] [--chromium /usr/bin/chromium]

Serves the site on 127.0.0.1 with a throw-away SQLite database holding a waiting table, a table in
play and a finished session, then visits the pages as a visitor, a player and an admin over the
DevTools protocol, plays a card over the websocket, and trips the login lockout. It prints each page
with its console errors and exits 1 if any message mentions the Content Security Policy, or if the
table's websocket did not answer. By default `manage.py runserver` serves the site in development
mode; `--production` runs `collectstatic` and daphne with DJANGO_DEBUG=0, as `make serve` does.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PASSWORD = "a-long-csp-check-password-7"
CHROMIUM_FLAGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--production", action="store_true")
    parser.add_argument("--chromium", default="chromium")
    args = parser.parse_args()
    workdir = tempfile.mkdtemp(prefix="femkort-csp-")
    port, devtools_port = _free_port(), _free_port()
    os.environ |= {
        "DATABASE_URL": f"sqlite:///{workdir}/csp.sqlite3",
        "FEMKORT_COMPUTER_PAUSE": "0",
        "FEMKORT_TRICK_PAUSE_SECONDS": "0",
        "DJANGO_SETTINGS_MODULE": "femkort_site.settings",
    }
    os.environ.pop("REDIS_URL", None)
    if args.production:
        os.environ |= {
            "DJANGO_DEBUG": "0",
            "DJANGO_SECRET_KEY": "csp-check-" + "k" * 50,
            "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
            "DJANGO_SECURE_SSL_REDIRECT": "0",
            "DJANGO_STATIC_ROOT": f"{workdir}/static",
            "DJANGO_EMAIL_HOST": "smtp.invalid",  # no mail is sent
        }
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    pages = _make_data()
    if args.production:
        call_command("collectstatic", "--noinput", verbosity=0)
        command = [
            "-m",
            "daphne",
            "--proxy-headers",
            "-b",
            "127.0.0.1",
            "-p",
            str(port),
            "femkort_site.asgi:application",
        ]
    else:
        command = ["manage.py", "runserver", "--noreload", f"127.0.0.1:{port}"]
    server = subprocess.Popen(
        [sys.executable, *command],
        cwd=ROOT,
        env=os.environ.copy(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    browser = subprocess.Popen(
        [
            args.chromium,
            *CHROMIUM_FLAGS,
            f"--remote-debugging-port={devtools_port}",
            f"--user-data-dir={workdir}/chromium",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        _wait_for(port)
        _wait_for(devtools_port)
        return _visit(f"http://127.0.0.1:{port}", devtools_port, pages)
    finally:
        for process in (browser, server):
            process.terminate()
            process.wait(timeout=10)


def _make_data() -> dict[str, Any]:
    from django.contrib.sessions.backends.db import SessionStore

    from accounts.models import User
    from games import services
    from games.models import Deal

    anna = User.objects.create_user("anna", password=PASSWORD, email="anna@example.com")
    bjorn = User.objects.create_user("bjorn", password=PASSWORD)
    admin = User.objects.create_superuser("admin", password=PASSWORD, email="admin@example.com")
    waiting = services.table_create(host=anna, seats=3)
    playing = services.table_create(host=anna, seats=3)
    for position in (1, 2):
        services.computer_add(session_id=playing.pk, user=anna, position=position, level="easy")
    services.session_start(session_id=playing.pk, user=anna)
    services.computers_play_all(session_id=playing.pk)
    finished = services.table_create(host=bjorn, seats=3, options={"profile": "modern", "trump": False, "target": 1})
    for position in (1, 2):
        services.computer_add(session_id=finished.pk, user=bjorn, position=position, level="easy")
    services.session_start(session_id=finished.pk, user=bjorn)
    while True:
        services.computers_play_all(session_id=finished.pk)
        finished.refresh_from_db()
        if finished.status != "playing":
            break
        from games.stored import deal_state

        state = deal_state(finished.deals.order_by("-number").first())
        services.action_take(session_id=finished.pk, user=bjorn, action=state.legal_cards()[0], seen_seq=finished.seq)

    def session_for(user: User) -> str:
        store = SessionStore()
        store["_auth_user_id"] = str(user.pk)
        store["_auth_user_backend"] = "django.contrib.auth.backends.ModelBackend"
        store["_auth_user_hash"] = user.get_session_auth_hash()
        store.create()
        return store.session_key

    deal = Deal.objects.filter(session=finished).first()
    return {
        "visitor": (None, ["/", "/accounts/login/", "/accounts/signup/", "/accounts/password_reset/", "/leaderboard/"]),
        "player": (
            session_for(anna),
            [
                "/",
                f"/tables/{waiting.pk}/",
                f"/tables/{playing.pk}/",
                f"/sessions/{finished.pk}/",
                f"/deals/{deal.pk}/replay/?step=3",
                "/players/bjorn/",
                "/accounts/profile/",
                "/accounts/password_change/",
            ],
        ),
        "admin": (
            session_for(admin),
            [
                "/admin/",
                "/admin/accounts/user/",
                f"/admin/accounts/user/{anna.pk}/change/",
                "/admin/accounts/user/add/",
                f"/admin/games/gamesession/{playing.pk}/change/",
                "/admin/games/gamesession/",
                "/admin/games/seat/",
                "/admin/games/deal/",
                f"/admin/games/deal/{deal.pk}/change/",
                "/admin/games/play/",
                "/admin/games/standing/",
                "/admin/games/periodstanding/",
                "/admin/axes/accessattempt/",
                "/admin/axes/accesslog/",
                "/admin/axes/accessfailurelog/",
                "/admin/password_change/",
            ],
        ),
        "playing": f"/tables/{playing.pk}/",
    }


class DevTools:
    """A minimal DevTools-protocol client: send commands, collect events."""

    def __init__(self, socket: Any) -> None:
        self.socket = socket
        self.ids = itertools.count(1)
        self.events: list[dict] = []

    @staticmethod
    def page_url(port: int) -> str:
        request = urllib.request.Request(f"http://127.0.0.1:{port}/json/new?about:blank", method="PUT")
        return json.load(urllib.request.urlopen(request, timeout=10))["webSocketDebuggerUrl"]

    def send(self, method: str, **params: Any) -> dict:
        number = next(self.ids)
        self.socket.send(json.dumps({"id": number, "method": method, "params": params}))
        while True:
            message = json.loads(self.socket.recv(timeout=30))
            if message.get("id") == number:
                return message.get("result", {})
            self.events.append(message)

    def collect(self, seconds: float) -> None:
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            try:
                self.events.append(json.loads(self.socket.recv(timeout=left)))
            except TimeoutError:
                break

    def take(self) -> list[dict]:
        events, self.events = self.events, []
        return events


def _messages(events: list[dict]) -> list[str]:
    found = []
    for event in events:
        params = event.get("params", {})
        if event.get("method") == "Log.entryAdded" and params["entry"]["level"] in {"error", "warning"}:
            found.append(f"{params['entry']['text']} ({params['entry'].get('url', '')})")
        elif event.get("method") == "Runtime.consoleAPICalled" and params["type"] in {"error", "warning"}:
            found.append(" ".join(str(arg.get("value", arg.get("description", ""))) for arg in params["args"]))
        elif event.get("method") == "Runtime.exceptionThrown":
            found.append(params["exceptionDetails"].get("exception", {}).get("description", "exception"))
    return found


def _visit(base: str, devtools_port: int, pages: dict[str, Any]) -> int:
    from websockets.sync.client import connect

    with connect(DevTools.page_url(devtools_port), max_size=None) as socket:
        return _visit_pages(base, DevTools(socket), pages)


def _visit_pages(base: str, tools: DevTools, pages: dict[str, Any]) -> int:
    for domain in ("Page", "Log", "Runtime", "Network"):
        tools.send(f"{domain}.enable")
    violations = 0
    connected = False

    def load(path: str, settle: float = 1.0) -> list[str]:
        nonlocal connected
        tools.send("Page.navigate", url=base + path)
        tools.collect(settle)
        events = tools.take()
        connected |= any(e.get("method") == "Network.webSocketHandshakeResponseReceived" for e in events)
        messages = _messages(events)
        where = tools.send("Runtime.evaluate", expression="location.pathname + location.search")["result"]["value"]
        moved = f" (redirected to {where})" if where != path else ""
        print(f"{path}{moved}: {'; '.join(messages) if messages else 'no console errors'}")
        return messages + [json.dumps(e) for e in events if "Content Security Policy" in json.dumps(e)]

    for role in ("visitor", "player", "admin"):
        cookie, paths = pages[role]
        tools.send("Network.clearBrowserCookies")
        if cookie:
            tools.send("Network.setCookie", name="sessionid", value=cookie, url=base)
        print(f"-- as {role}")
        for path in paths:
            violations += sum("Content Security Policy" in message for message in load(path))

    # A card played over the websocket, swapped in by htmx.
    tools.send("Network.clearBrowserCookies")
    tools.send("Network.setCookie", name="sessionid", value=pages["player"][0], url=base)
    load(pages["playing"], settle=2.0)
    play = "document.querySelector('#table button[data-card]:not([disabled])')?.click()"
    tools.send("Runtime.evaluate", expression=play)
    tools.collect(2.0)
    events = tools.take()
    frames = [e for e in events if e.get("method") == "Network.webSocketFrameReceived"]
    messages = _messages(events)
    print(f"card played over the websocket: {len(frames)} frames received; {'; '.join(messages) or 'no errors'}")
    connected = connected and bool(frames)
    violations += sum("Content Security Policy" in message for message in messages)

    # The lockout page, reached by a real form post.
    tools.send("Network.clearBrowserCookies")
    for _ in range(6):
        tools.send("Page.navigate", url=base + "/accounts/login/")
        tools.collect(0.7)
        tools.send(
            "Runtime.evaluate",
            expression=(
                "document.querySelector('#id_username').value='anna';"
                "document.querySelector('#id_password').value='wrong';"
                "document.querySelector('form.stacked').submit()"
            ),
        )
        tools.collect(0.7)
    events = tools.take()
    text = tools.send("Runtime.evaluate", expression="document.body.innerText")["result"]["value"]
    messages = _messages(events)
    locked = "Too many failed login attempts" in text
    violations += sum("Content Security Policy" in message for message in messages)
    print(f"lockout page shown: {locked}; {'; '.join(messages) or 'no console errors'}")

    print(f"websocket connected and answered: {connected}; CSP violations: {violations}")
    return 0 if violations == 0 and connected and locked else 1


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _wait_for(port: int) -> None:
    for _ in range(200):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.1)
    raise SystemExit(f"nothing is listening on port {port}")


if __name__ == "__main__":
    sys.exit(main())
