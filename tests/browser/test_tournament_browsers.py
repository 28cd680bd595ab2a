"""Tournaments end to end, in browsers against the site run as in production (daphne, PostgreSQL,
Redis, a task worker running the tournaments' clock every second):

- a 10-minute Femkort arena of five players, one deal a table: four are seated together, the fifth
  with computers after a short wait; each plays several tables, seated again whenever free, while
  a page left open shows the standings change; everyone pauses, the server restarts with its clock
  past the arena's end, and the final standings name a winner;
- a 3-round turn-based Swiss tournament of Nap with eight players (every browser driven by this
  test), opened to start in five minutes (the server restarted with its clock on by as much): two
  tables a round, nearest scores together, and final standings with the tie-break.
"""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import Browser, expect

from tests.servers import daphne, free_port, manage, shared_services_or_skip

from .conftest import _SITE_ENV, DESKTOP, SHOTS, drop_database, own_database, picture, rows_of, until
from .pages import Player


@pytest.fixture(scope="module")
def tournament_site(chromium, tmp_path_factory, django_db_blocker, site):
    """A server of its own: its database read by the test, a tournaments' worker ticking every second."""
    shared_services_or_skip()
    tmp_path = tmp_path_factory.mktemp("tournaments")
    with django_db_blocker.unblock():
        url = own_database(tmp_path, "tournaments")
    env = _SITE_ENV | {
        "DATABASE_URL": url,
        # Only the tournaments' worker: deals' reviews (minutes of search) would take the processor
        # from the browser tests running beside this one.
        "FEMKORT_TASK_WORKERS": "0",
        "FEMKORT_TOURNAMENT_WORKERS": "1",
        "FEMKORT_TOURNAMENT_TICK_SECONDS": "1",
        "FEMKORT_ARENA_FILL_SECONDS": "3",
        "FEMKORT_TOURNAMENT_SCHEDULE": "[]",  # only the tournaments the test opens
    }
    manage("migrate", "--noinput", env=env)
    try:
        yield env, url
    finally:
        with django_db_blocker.unblock():
            drop_database(url)


def sign_up(browser: Browser, base: str, names: list[str]) -> list[Player]:
    players = []
    for name in names:
        context = browser.new_context(base_url=base, viewport=DESKTOP)
        players.append(Player.sign_up(context, name))
    return players


def open_tournament(player: Player, **fields: str) -> str:
    page = player.page
    page.goto("/tournaments/")
    for name, value in fields.items():
        page.select_option(f"#id_{name}", value)
    page.locator("section[aria-labelledby=new-tournament] form button[type=submit]").click()
    page.wait_for_url(re.compile(r"/tournaments/\d+/$"))
    return page.url


def join(player: Player, address: str) -> None:
    player.page.goto(address)
    player.page.locator("form[action$='/join/'] button").click()
    expect(player.page.locator("form[action$='/withdraw/']")).to_be_visible()


def live_tables(url: str, address: str) -> int:
    tournament = int(address.rstrip("/").rsplit("/", 1)[1])
    ((count,),) = rows_of(
        url,
        "SELECT count(*) FROM games_gamesession WHERE tournament_id = %s AND status IN ('waiting', 'playing')",
        tournament,
    )
    return count


def step(player: Player, address: str, finished: dict[str, int]) -> None:
    """One look at ``player``'s page: play a card on their turn, leave a finished table for the
    tournament's page, or follow "Your table is ready" there."""
    page = player.page
    if "/tables/" in page.url:
        if page.locator(".result").count():
            finished[player.name] += 1
            page.goto(address)
        elif page.locator("#table[data-my-turn]").count() and player.playable().count():
            player.play_a_card()
        return
    ready = page.locator(".your-table a")
    if ready.count():
        ready.click()
        page.wait_for_url(re.compile(r"/tables/\d+/$"))
        player.live()


def test_a_femkort_arena_in_five_browsers(tournament_site, browser: Browser):
    env, url = tournament_site
    port = free_port()
    names = [f"{name}{port}" for name in ("alice", "bob", "carol", "dave", "erin")]
    with daphne(env, port) as base:
        players = sign_up(browser, base, names)
        alice = players[0]
        address = open_tournament(alice, kind="arena", game="femkort", minutes="10", deals="1", starts_in="0")
        for player in players[1:]:
            join(player, address)
        # A page left open on the standings: it must change with no reload.
        watcher = alice.page.context.new_page()
        watcher.goto(address)
        watcher.evaluate("window.neverReloaded = true")
        finished = dict.fromkeys(names, 0)
        paused: set[str] = set()
        pictured = False
        deadline = time.monotonic() + 6 * 60
        for player in players:
            player.page.goto(address)
        while len(paused) < len(players) or live_tables(url, address):
            assert time.monotonic() < deadline, f"the arena did not play out: {finished}"
            if SHOTS and not pictured and sum(finished.values()) >= 4:  # mid-arena: standings, tables in play
                pictured = True
                watcher.wait_for_timeout(2500)  # the page's next fetch of the standings
                picture(watcher, "tournament-arena-live-phone.png")
            for player in players:
                step(player, address, finished)
                page = player.page
                pause = page.locator("form[action$='/pause/'] button")
                if "/tournaments/" in page.url and finished[player.name] >= 2 and pause.count():
                    pause.click()  # two tables each: no new table from now on
                    expect(page.locator("form[action$='/join/'] button")).to_be_visible()
                    paused.add(player.name)
            players[0].page.wait_for_timeout(250)
        assert watcher.evaluate("window.neverReloaded") is True
        expect(watcher.locator(".tournament-standings tbody tr")).to_have_count(5)
        points = watcher.locator(".tournament-standings tbody tr td:nth-child(3)").all_inner_texts()
        assert sum(float(value) for value in points) > 0  # scored tables arrived on the open page
        ((with_computers,),) = rows_of(
            url,
            "SELECT count(DISTINCT s.session_id) FROM games_seat s JOIN games_gamesession g ON g.id = s.session_id"
            " WHERE g.tournament_id IS NOT NULL AND s.computer <> ''",
        )
        assert with_computers >= 1  # the fifth player was seated with computers after the wait
        assert all(count >= 2 for count in finished.values())
    # The arena's end: the server again with its clock past the end and the grace.
    with daphne(env | {"FEMKORT_CLOCK_SHIFT_SECONDS": str(10 * 60 + 301)}, free_port()) as base:
        page = alice.page
        page.goto(base + address[address.index("/tournaments/") :])
        until(lambda: page.reload() and page.locator(".winner").count() > 0, page)
        rows = page.locator(".tournament-standings tbody tr")
        expect(rows).to_have_count(5)
        places = [int(text) for text in page.locator(".tournament-standings tbody td:first-child").all_inner_texts()]
        assert places == [1, 2, 3, 4, 5]
        top = rows.first.locator("td:nth-child(2) a").inner_text()
        expect(page.locator(".winner")).to_contain_text(top)
        tables = [int(text) for text in page.locator(".tournament-standings tbody td:nth-child(4)").all_inner_texts()]
        assert all(count >= 2 for count in tables)
        picture(page, "tournament-arena-final-phone.png")


def test_a_turn_based_nap_swiss_of_eight(tournament_site, browser: Browser):
    env, url = tournament_site
    port = free_port()
    names = [f"nap{number}x{port}" for number in range(8)]
    with daphne(env, port) as base:
        players = sign_up(browser, base, names)
        address = open_tournament(
            players[0], kind="swiss", game="nap", rounds="3", deals="1", pace_seconds="86400", starts_in="300"
        )
        for player in players[1:]:
            join(player, address)
        players[0].page.goto("/tournaments/")
        picture(players[0].page, "tournaments-phone.png")
    # Its start: the server again with its clock five minutes on.
    port = free_port()
    with daphne(env | {"FEMKORT_CLOCK_SHIFT_SECONDS": "301"}, port) as base:
        address = base + address[address.index("/tournaments/") :]
        finished = dict.fromkeys(names, 0)
        for player in players:
            player.page.goto(address)
        deadline = time.monotonic() + 8 * 60
        page = players[0].page
        while not (page.locator(".winner").count() and "/tournaments/" in page.url):
            assert time.monotonic() < deadline, f"the Swiss tournament did not finish: {finished}"
            for player in players:
                step(player, address, finished)
            page.wait_for_timeout(250)
        # The winner shows once the last table has ended, though a player's page may not have shown
        # its result yet: what counts is what the standings say, three tables each, nobody sat out.
        tournament = int(address.rstrip("/").rsplit("/", 1)[1])
        rounds = rows_of(
            url,
            "SELECT tournament_round, count(*) FROM games_gamesession WHERE tournament_id = %s"
            " GROUP BY tournament_round ORDER BY tournament_round",
            tournament,
        )
        assert rounds == [(1, 2), (2, 2), (3, 2)]
        assert (
            rows_of(url, "SELECT pace_seconds FROM games_gamesession WHERE tournament_id = %s", tournament)
            == [(86400,)] * 6
        )
        expect(page.locator(".tournament-standings thead")).to_contain_text("Opponents' points")
        picture(page, "tournament-swiss-final-phone.png")
        rows = page.locator(".tournament-standings tbody tr")
        expect(rows).to_have_count(8)
        cells = [row.locator("td").all_inner_texts() for row in rows.all()]
        assert [int(cell[0]) for cell in cells] == list(range(1, 9))
        assert [int(cell[3]) for cell in cells] == [3] * 8  # three rounds each, nobody sat out
        keys = [(float(cell[2]), float(cell[5])) for cell in cells]  # points, then opponents' points
        assert keys == sorted(keys, reverse=True)  # ties beyond these two keep their tuples equal
