"""The same deal for everyone, end to end, in three browsers against the site run as in production:
Alice and Bob each play today's Femkort daily deal and are dealt the same hand from the same seat;
Carol, who has not played it, sees nothing of it in any page or frame while Alice's results page
scores both with matchpoints beside the strong computer's result and par. The day then closes (the
server restarted with its events' clock moved on): the seed is revealed and the day's export passes
``python -m games.engine verify``. A finished Euchre table dealt again deals the same cards and the
comparison page scores both; a duplicate event of four deals with three players shows standings
that change while the page is open.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from datetime import UTC, datetime, timedelta

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.servers import ROOT, daphne, free_port, manage, shared_services_or_skip

from .conftest import _SITE_ENV, DESKTOP, drop_database, own_database, picture, rows_of, until
from .pages import Player

GAME = "femkort"


@pytest.fixture(scope="module")
def duplicate_site(chromium, tmp_path_factory, django_db_blocker, site):
    """A server of its own (a database the test reads, a task worker for the boards' references)."""
    shared_services_or_skip()
    tmp_path = tmp_path_factory.mktemp("duplicate")
    with django_db_blocker.unblock():
        url = own_database(tmp_path, "duplicate")
    # Its worker does not yield the processor: beside other tests' browsers a niced worker waits for
    # them, and par (a search of the whole deal) is what this test waits for.
    env = _SITE_ENV | {"DATABASE_URL": url, "FEMKORT_TASK_WORKERS": "1", "FEMKORT_TASK_NICE": "0"}
    manage("migrate", "--noinput", env=env)
    try:
        yield env, url
    finally:
        with django_db_blocker.unblock():
            drop_database(url)


def hand(page: Page) -> list[str]:
    return page.locator(".hand [data-card]").evaluate_all("(cards) => cards.map((card) => card.dataset.card)")


def play_daily(player: Player) -> tuple[str, list[str]]:
    """From the daily page, play today's deal of ``GAME`` to its end; the table's address and the hand dealt."""
    page = player.page
    page.goto("/daily/")
    page.locator(f'li.daily-deal[data-game="{GAME}"] form button[type=submit]').click()
    page.wait_for_url(re.compile(r"/tables/\d+/$"))
    player.live()
    dealt = hand(page)
    player.play_until_finished()
    return page.url, dealt


def frames_of(page: Page) -> list[str]:
    """Every websocket frame ``page`` receives from now on."""
    frames: list[str] = []
    page.on("websocket", lambda socket: socket.on("framereceived", lambda payload: frames.append(str(payload))))
    return frames


@pytest.mark.timeout(900)  # the references' wait below may take up to 600 s on a starved worker
def test_the_daily_deal_in_three_browsers(duplicate_site, browser: Browser):
    env, url = duplicate_site
    port = free_port()
    server = daphne(env, port)
    base = server.__enter__()
    contexts = []
    try:
        players = {}
        for name in ("alice", "bob", "carol"):
            context = browser.new_context(base_url=base, viewport=DESKTOP)
            contexts.append(context)
            players[name] = Player.sign_up(context, f"{name}{port}")
        alice, bob, carol = players["alice"], players["bob"], players["carol"]
        carols_frames = frames_of(carol.page)

        alices_table, alices_hand = play_daily(alice)
        bobs_table, bobs_hand = play_daily(bob)
        assert alices_hand == bobs_hand  # the same cards from the same seat
        assert len(alices_hand) >= 5
        assert alices_table != bobs_table
        ((event,),) = rows_of(url, "SELECT event_id FROM games_gamesession WHERE event_id IS NOT NULL LIMIT 1")

        # Carol has not played: the deal's pages are refused, its results and cards nowhere.
        seen = []
        for address in (alices_table, f"/events/{event}/", "/daily/", f"/events/{event}/export.json"):
            response = carol.page.goto(address)
            seen.append(carol.page.content())
            if "/tables/" in address or "export" in address:
                assert response.status == 404
        carol.page.goto(f"/events/{event}/")
        carol.page.wait_for_timeout(1500)  # her notices socket is open: nothing of the deal comes over it
        for card in alices_hand:
            assert all(f'data-card="{card}"' not in html for html in seen)
            assert all(
                f'data-card=\\"{card}\\"' not in frame and f'data-card="{card}"' not in frame for frame in carols_frames
            )
        assert all(alice.name not in html for html in seen)
        expect(carol.page.locator(".board-results")).to_have_count(0)

        # Alice's results page: both results with matchpoints, the strong computer's result and par.
        page = alice.page
        until(
            lambda: rows_of(url, 'SELECT 1 FROM games_board WHERE event_id = %s AND "references"', event),
            page,
            seconds=600,
        )
        page.goto(f"/events/{event}/")
        # Par is a number unless this shuffle's deal outgrew the search's budget; the page says which.
        ((par,),) = rows_of(url, "SELECT par FROM games_board WHERE event_id = %s", event)
        if next(iter(par.values())) is None:
            expect(page.locator("ul.references")).to_contain_text("too large to search")
        else:
            expect(page.locator(".par")).to_be_visible()
        results = page.locator("table.board-results tbody tr")
        expect(results).to_have_count(2)
        expect(page.locator("table.board-results")).to_contain_text(alice.name)
        expect(page.locator("table.board-results")).to_contain_text(bob.name)
        percents = results.locator("td:nth-child(4)").all_inner_texts()
        assert sorted(float(p) for p in percents) in ([0.0, 100.0], [50.0, 50.0])
        expect(page.locator(".computer-result")).to_be_visible()
        assert "2 results from the same seat" in page.content()
        picture(page, "daily-results-phone.png")

        # The day closes: the server comes back with the events' clock an hour and a minute into tomorrow.
        ((reveals,),) = rows_of(url, "SELECT reveals FROM games_duplicateevent WHERE id = %s", event)
        shift = (reveals - datetime.now(UTC) + timedelta(minutes=1)).total_seconds()
        server.__exit__(None, None, None)
        env = env | {"FEMKORT_CLOCK_SHIFT_SECONDS": str(shift)}
        server = daphne(env, port)
        server.__enter__()
        carol.page.goto(f"/events/{event}/")
        expect(carol.page.locator("table.board-results tbody tr")).to_have_count(2)  # public now
        export = carol.page.request.get(f"/events/{event}/export.json")
        assert export.status == 200
        ((seed,),) = rows_of(url, "SELECT seed FROM games_board WHERE event_id = %s", event)
        assert json.loads(export.body())[0]["fair"]["seed"] == seed
        checked = subprocess.run(
            [sys.executable, "-m", "games.engine", "verify"],
            input=export.body(),
            cwd=ROOT,
            capture_output=True,
            timeout=120,
        )
        assert checked.returncode == 0, checked.stdout + checked.stderr
        carol.page.goto("/daily/")
        expect(carol.page.locator("body")).to_contain_text(seed)  # yesterday's deals, revealed
        picture(carol.page, "daily-phone.png")

        # A finished Euchre table dealt again deals the same cards; the comparison scores both.
        alice.against_computers(game="euchre", seats=4, points="5")
        first = int(re.search(r"/tables/(\d+)/", page.url).group(1))
        alice.play_until_finished(timeout=180_000)
        page.goto(f"/sessions/{first}/")
        page.locator("form.same-deals button[type=submit]").click()
        page.wait_for_url(re.compile(r"/tables/\d+/$"))
        again = int(re.search(r"/tables/(\d+)/", page.url).group(1))
        alice.live()
        alice.start()
        alice.play_until_finished(timeout=180_000)
        setups = rows_of(
            url,
            "SELECT a.setup = b.setup FROM games_deal a JOIN games_deal b ON a.number = b.number "
            "WHERE a.session_id = %s AND b.session_id = %s ORDER BY a.number",
            first,
            again,
        )
        assert setups
        assert setups[0] == (True,)
        page.goto(f"/sessions/{again}/compared/")
        expect(page.locator(".compared-points").first).to_be_visible()
        expect(page.locator("table.compared-totals")).to_be_visible()
        picture(page, "same-deals-compared-phone.png")

        # A duplicate event of four deals, three players: standings change while Alice's page is open.
        page.goto("/events/")
        page.select_option("#id_game", GAME)
        page.select_option("#id_deal_count", "4")
        page.locator("form.stacked button[type=submit]").click()
        page.wait_for_url(re.compile(r"/events/\d+/$"))
        event_page = page.url
        for someone in (alice, bob, carol):
            someone.page.goto(event_page)
            someone.page.locator("form.controls button[type=submit]").click()
            someone.page.wait_for_url(re.compile(r"/tables/\d+/$"))
            someone.live()
            someone.play_until_finished(timeout=180_000)
        page.goto(event_page)
        standings = page.locator("#event-standings")
        expect(standings.locator("tbody tr")).to_have_count(3)
        expect(standings).to_contain_text("4/4")
        # A fourth player starts: the open page shows them without a reload.
        dave_context = browser.new_context(base_url=base, viewport=DESKTOP)
        contexts.append(dave_context)
        dave = Player.sign_up(dave_context, f"dave{port}")
        dave.page.goto(event_page)
        dave.page.locator("form.controls button[type=submit]").click()
        dave.page.wait_for_url(re.compile(r"/tables/\d+/$"))
        expect(standings.locator("tbody tr")).to_have_count(4, timeout=30_000)
        expect(standings).to_contain_text(dave.name)
        picture(page, "event-standings-phone.png")
    finally:
        server.__exit__(None, None, None)
        for context in contexts:
            context.close()
