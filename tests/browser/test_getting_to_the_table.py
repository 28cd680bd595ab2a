"""Getting people to the table, in browsers as they would: Play now, an invitation by name to a
private table that arrives live and is joined from its toast, a block that stops invitations,
and a waiting table nobody comes back to that leaves the lobby on time.

On a server of its own (its own database, so Play now finds no other module's tables, and a
waiting table's idle time short enough to watch it go).
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from .conftest import TALL_PHONE, site_beside
from .pages import Player

SHOTS = os.environ.get("FEMKORT_SCREENSHOTS")  # a folder: save the pictures of docs/playing.md there
# Longer than a live socket's presence beat (30 s), so a table its host still looks at never looks idle.
IDLE_SECONDS = 60

# A browser whose tab is hidden and whose player allowed notifications: what it notifies is kept.
NOTIFICATIONS = """
window.notified = [];
window.Notification = function (title, options) { window.notified.push(options.body); };
window.Notification.permission = "granted";
Object.defineProperty(document, "hidden", { get: function () { return true; }, configurable: true });
"""


@pytest.fixture(scope="module")
def lobby_site(site, tmp_path_factory, django_db_blocker) -> Iterator[str]:
    workdir = tmp_path_factory.mktemp("lobby-site")
    extra = {"FEMKORT_WAITING_EXPIRE_SECONDS": str(IDLE_SECONDS)}
    with site_beside(workdir, "lobby", django_db_blocker, **extra) as base:
        yield base


@pytest.fixture(scope="module")
def people(lobby_site, browser) -> Iterator:
    """One signed-up person per name for the whole module, each in a tall phone's window."""
    made: dict[str, Player] = {}

    def person(name: str) -> Player:
        if name not in made:
            context = browser.new_context(viewport=TALL_PHONE, base_url=lobby_site, locale="en-GB")
            made[name] = Player.sign_up(context, f"{name}{os.getpid()}")
        return made[name]

    yield person
    for someone in made.values():
        someone.page.context.close()


@pytest.fixture(scope="module")
def stale_table(people) -> tuple[str, float]:
    """A table Dora opened and then left waiting (she went on to another page): its address, and
    when she left it."""
    dora = people("dora")
    path = urlsplit(dora.open_table(game="nap", seats=4)).path  # not a game Play now is asked for here
    left = time.monotonic()
    dora.page.goto("/leaderboard/")
    return path, left


def shot(page, name: str) -> None:
    if SHOTS:
        page.screenshot(path=str(Path(SHOTS) / name))


def test_the_phone_lobby_shows_the_open_tables_in_its_first_screen(people, stale_table):
    path, _ = stale_table
    erik = people("erik")
    erik.page.goto("/")
    listed = erik.page.locator(f'.table-list a[href="{path}"]')
    expect(listed).to_be_visible()
    box = listed.bounding_box()
    assert box is not None
    assert box["y"] + box["height"] <= TALL_PHONE["height"], box  # no scrolling to find it
    expect(erik.page.locator(".play-now button").first).to_be_in_viewport()
    shot(erik.page, "lobby-phone.png")


def test_play_now_puts_you_at_a_started_table_in_one_click(people):
    alice = people("alice")
    alice.page.goto("/")
    alice.page.locator(".play-now form:has(input[name=game][value=femkort]) button").click()
    alice.page.wait_for_url(re.compile(r"/tables/\d+/$"))
    expect(alice.page.locator(".felt")).to_be_visible()  # dealt and playing, not waiting
    expect(alice.page.locator(".felt .seat")).to_have_count(4)
    assert alice.page.locator(".felt .seat:has-text('computer')").count() == 3


def test_the_header_lists_friends_online_and_the_table_they_are_at(people):
    alice, erik = people("alice"), people("erik")
    alice.page.goto("/")  # Play now finds the table she sits at (the test before opened it), or opens one
    alice.page.locator(".play-now form:has(input[name=game][value=femkort]) button").click()
    alice.page.wait_for_url(re.compile(r"/tables/\d+/$"))
    table = urlsplit(alice.page.url).path
    erik.page.goto(f"/players/{alice.name}/")
    erik.page.locator("form:has(input[name=following][value='1']) button").click()
    expect(erik.page.locator(".friends-menu summary .wide-only")).to_have_text("1 friend online")  # read aloud
    expect(erik.page.locator(".friends-menu summary .narrow-only")).to_have_text("Friends 1")  # shown on a phone
    erik.page.locator(".friends-menu summary").click()
    expect(erik.page.locator(f'.friends-menu a[href="/players/{alice.name}/"]')).to_be_visible()
    expect(erik.page.locator(f'.friends-menu a[href="{table}"]')).to_be_visible()
    shot(erik.page, "friends-online-phone.png")


def test_an_invitation_to_a_private_table_arrives_live_and_is_joined_from_its_toast(people):
    alice, bob, cecilia = people("alice"), people("bob"), people("cecilia")
    url = alice.open_table(game="euchre", seats=4, unlisted=True)
    path = urlsplit(url).path
    code = alice.page.locator(".table-code").inner_text()
    bob.page.context.add_init_script(NOTIFICATIONS)
    bob.page.goto("/")
    bob.live()  # the page's notices socket is open
    expect(bob.page.locator("main")).not_to_contain_text(code)
    assert bob.page.locator(f'a[href="{path}"]').count() == 0  # a private table is in no list

    alice.page.fill("#invite-name", bob.name)
    alice.page.locator(".invite-form button[type=submit]").click()
    expect(alice.page.locator("#table")).to_contain_text(f"{bob.name} (")  # "Invited: bob (waiting)"

    toast = bob.page.locator("#toasts .toast")
    expect(toast).to_contain_text(f"{alice.name} invites you to")  # live: the page was not reloaded
    expect(bob.page.locator("#invitations-link .badge")).to_have_text("1")
    assert any(f"{alice.name} invites you to" in body for body in bob.page.evaluate("window.notified"))
    shot(bob.page, "invitation-toast-phone.png")
    toast.locator("button", has_text="Join").click()
    bob.page.wait_for_url(url)
    expect(bob.page.locator(f".seat:has-text('{bob.name}')")).to_be_visible()
    expect(alice.page.locator(f".seat:has-text('{bob.name}')")).to_be_visible()
    expect(bob.page.locator("#invitations-link .badge")).to_have_count(0)

    cecilia.page.goto("/")  # the code typed in the lobby finds the private table
    cecilia.page.fill("#table-code", code.lower())
    cecilia.page.locator(".table-code-form button[type=submit]").click()
    cecilia.page.wait_for_url(url)


def test_a_blocked_player_cannot_invite_and_is_not_told_why(people):
    bob, carol = people("bob"), people("carol")
    bob.page.goto(f"/players/{carol.name}/")
    bob.page.locator("form:has(input[name=blocked][value='1']) button").click()
    expect(bob.page.locator("main")).to_contain_text(f"You blocked {carol.name}")
    bob.page.goto("/accounts/profile/#blocked")
    expect(bob.page.locator("#blocked")).to_contain_text(carol.name)

    carol.open_table(game="femkort", seats=4)
    # Her socket's first frames are in (its whole table, then her own presence), so none comes
    # after the refusal to replace the table it is said on.
    expect(carol.page.locator("#presence-0.online")).to_be_visible()
    carol.page.fill("#invite-name", bob.name)
    carol.page.locator(".invite-form button[type=submit]").click()
    expect(carol.page.locator("#table")).to_contain_text("cannot be invited")
    bob.page.goto("/")
    expect(bob.page.locator("#invitations-link")).to_be_visible()
    expect(bob.page.locator("#invitations-link .badge")).to_have_count(0)
    carol.page.goto("/leaderboard/")


def test_a_waiting_table_nobody_comes_back_to_leaves_the_lobby_on_time(people, stale_table):
    path, left = stale_table
    erik = people("erik")
    deadline = left + IDLE_SECONDS + 120
    while True:
        erik.page.goto("/")
        if erik.page.locator(f'.table-list a[href="{path}"]').count() == 0:
            break
        assert time.monotonic() < deadline, "the idle table is still listed long after its time"
        erik.page.wait_for_timeout(1000)
    assert time.monotonic() - left >= IDLE_SECONDS - 1  # not before its time either
    erik.page.goto(path)  # closed by the server's sweep soon after (a visitor is no sign of life)
    expect(erik.page.locator("#table")).to_contain_text("Closed", timeout=120_000)
