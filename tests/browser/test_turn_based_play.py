"""Turn-based play end to end, in three browsers against the site run as in production: Alice opens a
turn-based Euchre table (a day per move), Bob and Carol join, a computer takes the fourth seat; Alice
and Bob allow notifications, Bob and Carol close their browsers; Alice plays. Bob's browser is told by
Web Push (a local push service decrypts and verifies every message), Alice's never (she is at the
table); Bob's My tables lists the table first with its deadline; Carol gets one e-mail listing the
table once; a passed deadline has the computer move for the absent seat; across a restart of the
server, with a notice queued and not yet sent, nothing is lost and nothing is sent twice.

A day per move is shortened for the test (``FEMKORT_PACE_FACTOR``): half a minute.
"""

from __future__ import annotations

import contextlib
import email
import json
import os
import re
import time
from collections.abc import Callable
from pathlib import Path

import psycopg
import pytest
from playwright.sync_api import Browser, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.push_service import PushService, vapid_keys
from tests.servers import daphne, free_port, manage, shared_services_or_skip

from .conftest import _SITE_ENV, drop_database, own_database
from .pages import PASSWORD, Player

SHOTS = os.environ.get("FEMKORT_SCREENSHOTS")  # a folder: save the pictures of the README there
DAY = 24 * 3600
HALF_A_MINUTE_A_DAY = str(30 / DAY)
FAKE_PUSH = """
(info) => {
  // Headless Chromium has no push service of its own: the browser's subscription is the local
  // service's, and everything else (permission, service worker, the site's script) is the real thing.
  let current = null;
  const subscription = {
    endpoint: info.endpoint,
    expirationTime: null,
    toJSON: () => ({endpoint: info.endpoint, expirationTime: null, keys: info.keys}),
    unsubscribe: async () => { current = null; return true; },
  };
  PushManager.prototype.subscribe = async function () { current = subscription; return subscription; };
  PushManager.prototype.getSubscription = async function () { return current; };
}
"""


class ServerRows:
    """The server's own database, read as the test goes (never written)."""

    def __init__(self, url: str):
        self.connection = psycopg.connect(url, autocommit=True)

    def one(self, sql: str, *args: object):
        with self.connection.cursor() as cursor:
            cursor.execute(sql, args)
            return cursor.fetchone()

    def value(self, sql: str, *args: object):
        row = self.one(sql, *args)
        return row[0] if row else None

    def to_act(self, table: int) -> str | None:
        """Who is to act at ``table``: a username, or "" for a computer."""
        return self.value(
            "SELECT coalesce(u.username, '') FROM games_gamesession s JOIN games_seat seat "
            "ON seat.session_id = s.id AND seat.position = s.to_act LEFT JOIN accounts_user u ON u.id = seat.user_id "
            "WHERE s.id = %s",
            table,
        )


@pytest.fixture(scope="module")
def turn_site(chromium, tmp_path_factory, django_db_blocker, site):
    """A server of its own for this module: half a minute per day of pace, e-mail into files, pushes to
    127.0.0.1 signed with a known key, one task worker beside it; restartable on the same port. Made
    before the module's browser opens (the database is not to be touched while it is)."""
    shared_services_or_skip()
    tmp_path = tmp_path_factory.mktemp("turns")
    private, public = vapid_keys()
    with django_db_blocker.unblock():
        url = own_database(tmp_path, "turns")
    mails = tmp_path / "mails"
    env = _SITE_ENV | {
        "DATABASE_URL": url,
        "FEMKORT_PACE_FACTOR": HALF_A_MINUTE_A_DAY,
        "FEMKORT_TURN_EMAIL_DELAY_SECONDS": "2",
        "FEMKORT_TURN_EMAIL_EVERY_SECONDS": "3600",
        "FEMKORT_TASK_WORKERS": "1",
        "FEMKORT_SWEEP_SECONDS": "1",
        "FEMKORT_PUSH_SERVICES": "127.0.0.1",
        "FEMKORT_VAPID_PRIVATE_KEY": private,
        "DJANGO_EMAIL_BACKEND": "django.core.mail.backends.filebased.EmailBackend",
        "DJANGO_EMAIL_FILE_PATH": str(mails),
    }
    manage("migrate", "--noinput", env=env)
    try:
        yield env, url, public, mails
    finally:
        with django_db_blocker.unblock():
            drop_database(url)


def mails_to(folder: Path, address: str) -> list[email.message.Message]:
    found = []
    for path in sorted(folder.glob("*.log")) if folder.exists() else []:
        for text in path.read_bytes().split(b"-" * 79):
            message = email.message_from_bytes(text.strip())
            if message["To"] == address:
                found.append(message)
    return found


def body_of(message: email.message.Message) -> str:
    part = next(part for part in message.walk() if part.get_content_type() == "text/plain")
    return part.get_payload(decode=True).decode(part.get_content_charset() or "utf-8")


def play_until(alice: Player, done: Callable[[], bool], *, minutes: float = 4) -> None:
    """Alice plays whatever she may at each of her turns until ``done()`` (looked at between turns)."""
    deadline = time.monotonic() + 60 * minutes
    while not done():
        assert time.monotonic() < deadline, "the table did not get there in time"
        if alice.page.locator("#table[data-my-turn]").count() and alice.playable().count():
            alice.play_a_card()
            continue
        with contextlib.suppress(PlaywrightTimeout):  # not her turn within the second: are we there yet?
            alice.page.wait_for_selector("#table[data-my-turn]", timeout=1000)


def allow_pushes(player: Player, subscription_info: dict) -> None:
    """In Settings, turn this browser's notifications on, as a player does."""
    page = player.page
    page.goto("/accounts/profile/#notifications")
    switch = page.locator("[data-push-switch]")
    switch.locator("[data-push-on]").click()
    expect(switch).to_have_attribute("data-push-state", "on")


def test_turn_based_euchre_in_three_browsers(turn_site, browser: Browser):
    env, url, public, mails = turn_site
    rows = ServerRows(url)
    port = free_port()
    with PushService(vapid_public_key=public) as push:
        bob_phone = push.subscribe("bob")
        alice_laptop = push.subscribe("alice")
        contexts = {}
        players = {}
        server = daphne(env, port)
        base = server.__enter__()
        try:
            for name, subscription in (("alice", alice_laptop), ("bob", bob_phone), ("carol", None)):
                context = browser.new_context(base_url=base, viewport={"width": 390, "height": 844})
                if subscription is not None:
                    context.grant_permissions(["notifications"], origin=base)
                    context.add_init_script(script=f"({FAKE_PUSH})({json.dumps(subscription.info())})")
                contexts[name] = context
                players[name] = Player.sign_up(context, f"{name}{port}")
            alice, bob, carol = players["alice"], players["bob"], players["carol"]
            allow_pushes(alice, alice_laptop.info())
            allow_pushes(bob, bob_phone.info())
            table_url = alice.open_table(game="euchre", seats=4, pace_seconds=str(DAY))
            table = int(re.search(r"/tables/(\d+)/", table_url).group(1))
            bob.sit_at(table_url, host=alice)
            carol.sit_at(table_url, host=alice)
            alice.add_computers(1)
            for name in ("bob", "carol"):  # they close their browsers
                contexts.pop(name).close()
            alice.start()

            # Bob's turn: his phone is told, Alice's laptop never (she has the table open).
            play_until(alice, lambda: rows.to_act(table) == bob.name)
            began = time.monotonic()
            told = push.wait_for("bob", timeout=60)[0]
            print(f"Bob's push arrived {time.monotonic() - began:.1f} s after the test saw his turn begin")
            assert told.json()["title"] == f"Your turn at Euchre #{table}"
            assert told.json()["url"] == f"/tables/{table}/"
            assert push.messages("alice") == []
            assert push.failures == []

            # Bob opens the site again: My tables lists the table first, with its deadline.
            again = browser.new_context(
                base_url=base, viewport={"width": 390, "height": 844}, timezone_id="Europe/Stockholm"
            )
            page = again.new_page()
            page.goto("/accounts/login/")
            page.fill("#id_username", bob.name)
            page.fill("#id_password", PASSWORD)
            page.locator("form.stacked button[type=submit]").click()
            page.goto("/tables/mine/")
            first = page.locator("li.waiting-on-me").first
            expect(first.locator("a")).to_have_attribute("href", f"/tables/{table}/")
            expect(first.locator(".deadline")).to_contain_text("plays by")
            expect(page.locator("#my-tables-link .badge")).to_have_text("1")
            if SHOTS:
                page.screenshot(path=str(Path(SHOTS) / "my-tables-phone.png"), full_page=True)
            page.goto("/accounts/profile/#notifications")
            expect(page.locator("select[name=time_zone]")).to_have_value("Europe/Stockholm")  # the device's, offered
            if SHOTS:
                page.locator("#notifications").screenshot(path=str(Path(SHOTS) / "notifications-phone.png"))
            again.close()

            # The server restarts without a task worker, so a notice is queued and not sent when it stops.
            server.__exit__(None, None, None)
            server = daphne(env | {"FEMKORT_TASK_WORKERS": "0"}, port)
            server.__enter__()
            alice.live()
            bobs_seat = rows.value(
                "SELECT position FROM games_seat s JOIN accounts_user u ON u.id = s.user_id "
                "WHERE s.session_id = %s AND u.username = %s",
                table,
                bob.name,
            )

            # Bob's deadline passes: the computer makes his move; his seat stays his.
            def bob_moved_by_the_computer() -> bool:
                return bool(
                    rows.value(
                        "SELECT missed FROM games_seat WHERE session_id = %s AND position = %s", table, bobs_seat
                    )
                )

            play_until(alice, bob_moved_by_the_computer)
            assert (
                rows.value("SELECT stand_in FROM games_seat WHERE session_id = %s AND position = %s", table, bobs_seat)
                == ""
            )
            play_until(alice, lambda: rows.to_act(table) == carol.name)
            # Ready to run now (not one waiting to look again later at someone who has the table open).
            queued = (
                "SELECT count(*) FROM django_tasks_database_dbtaskresult t JOIN accounts_user u "
                "ON (t.args_kwargs -> 'args' ->> 1)::int = u.id WHERE t.task_path = 'games.tasks.turn_notify' "
                "AND t.status = 'READY' AND (t.run_after <= now() OR t.run_after >= '9999-01-01') AND u.username = %s"
            )
            assert rows.value(queued, carol.name) == 1  # Carol's notice, waiting for a worker
            server.__exit__(None, None, None)
            server = daphne(env, port)
            server.__enter__()
            alice.live()

            # Carol's one e-mail lists the table once, however many moves were made.
            deadline = time.monotonic() + 120
            while not mails_to(mails, f"{carol.name}@example.org"):
                assert time.monotonic() < deadline, "Carol's e-mail did not come"
                alice.page.wait_for_timeout(500)
            # Her deadline passes, the table plays on, her turn comes again: still the one e-mail.
            carols_notices = (
                "SELECT count(*) FROM games_turnnotice n JOIN accounts_user u ON u.id = n.user_id "
                "WHERE u.username = %s AND (n.skipped <> '' OR n.pushed > 0)"
            )
            play_until(alice, lambda: rows.value(carols_notices, carol.name) >= 2)
            to_carol = mails_to(mails, f"{carol.name}@example.org")
            assert len(to_carol) == 1
            assert body_of(to_carol[0]).count(f"/tables/{table}/") == 1
            assert rows.value(queued, carol.name) == 0
            told_carol = (
                "SELECT count(*) FROM games_turnnotice n JOIN accounts_user u ON u.id = n.user_id "
                "WHERE u.username = %s AND n.mailed IS NOT NULL"
            )
            assert rows.value(told_carol, carol.name) >= 1
            pushed = rows.value(
                "SELECT count(*) FROM games_turnnotice n JOIN accounts_user u ON u.id = n.user_id "
                "WHERE u.username = %s AND n.pushed > 0",
                bob.name,
            )
            assert len(push.messages("bob")) == pushed  # one per turn told: none lost, none twice
            assert push.messages("alice") == []
            assert push.failures == []
        finally:
            server.__exit__(None, None, None)
            for context in contexts.values():
                context.close()
            rows.connection.close()
