"""Nap and Euchre played to the end in the browser: bidding and trump making by buttons that say
what they mean, partners, and exports that replay through the engine's command line."""

from __future__ import annotations

import json
import subprocess
import sys

from playwright.sync_api import expect

from .pages import Player, play_together


def _exports_replay(me: Player) -> int:
    """Every deal of the session's export replays through ``python -m games.engine replay`` and
    verifies through ``python -m games.engine verify``."""
    me.page.locator(".result a").first.click()  # "Deals and replays"
    export = me.page.locator("a[href^='/sessions/'][href$='/export.json']")
    records = json.loads(me.page.request.get(export.first.get_attribute("href")).text())
    for record in records:
        done = subprocess.run(
            [sys.executable, "-m", "games.engine", "replay"],
            input=json.dumps(record),
            capture_output=True,
            text=True,
            check=True,
        )
        assert json.loads(done.stdout.strip().splitlines()[-1])["result"] is not None
    checked = subprocess.run(
        [sys.executable, "-m", "games.engine", "verify"], input=json.dumps(records), capture_output=True, text=True
    )
    assert checked.returncode == 0, checked.stdout  # every deal was dealt from the seed it committed to
    assert checked.stdout.count(": verified") == len(records)
    return len(records)


def test_nap_for_four_against_three_computers(player):
    me = player()
    me.open_table(game="nap", seats=4, rounds="1")
    me.add_computers(3)
    me.start()
    page = me.page
    seen = {"meaning": False, "contract": False}

    def look() -> None:
        described = page.locator(".choices button[aria-describedby]")
        if not seen["meaning"] and described.count():  # each bid says what it means, on demand
            meaning = page.locator(f"#{described.first.get_attribute('aria-describedby')}")
            expect(meaning).to_contain_text("Take at least")
            expect(meaning).to_be_hidden()
            page.locator(".meanings summary").click()
            expect(meaning).to_be_visible()
            seen["meaning"] = True
        if page.locator(".contract").count():
            seen["contract"] = True

    play_together([me], check=look)
    assert seen["meaning"]
    assert seen["contract"]
    expect(page.locator(".result")).to_be_visible()
    assert _exports_replay(me) >= 4  # everyone dealt once


def test_euchre_with_a_friend_as_partner_against_two_computers(player):
    anna, bo = player(), player()
    url = anna.open_table(game="euchre", seats=4)
    bo.sit_at(url, position=2, host=anna)
    anna.add_computers(2)
    anna.start()
    seen = {"partner": False, "upcard": False, "sitting_out": False}

    def look() -> None:
        for someone in (anna, bo):
            page = someone.page
            seen["partner"] |= page.locator(f".seat[data-seat='0'] .partner:has-text('{bo.name}')").count() > 0
            seen["upcard"] |= page.locator(".upcard .card").count() > 0
            seen["sitting_out"] |= page.locator(".seat.sitting-out").count() > 0

    play_together([anna, bo], check=look)
    assert all(seen.values()), seen
    for someone in (anna, bo):
        expect(someone.page.locator(".result")).to_contain_text("partners")
    assert _exports_replay(anna) >= 1
