"""On a 390x844 phone: a session's page and a player's page fit the screen's width, their tables
included (the links to replays and reviews, deals won, the rating)."""

from __future__ import annotations

import os
from pathlib import Path

from .conftest import TALL_PHONE

SHOTS = os.environ.get("FEMKORT_SCREENSHOTS")

BEYOND = """() => [...document.querySelectorAll("main *")].filter((e) => {
    const box = e.getBoundingClientRect();
    return box.width > 0 && box.right > innerWidth + 0.5;
}).map((e) => e.outerHTML.slice(0, 100))"""


def test_a_sessions_page_and_a_players_page_fit_a_phone(player):
    me = player(TALL_PHONE)
    me.against_computers(game="femkort", seats=3, target="1")
    me.play_until_finished()
    page = me.page
    page.locator(".result a").first.click()  # "Deals and replays"
    page.wait_for_selector("table.board a[href*='/replay/']")
    if SHOTS:
        page.screenshot(path=str(Path(SHOTS) / "session-phone.png"), full_page=True)
    assert page.evaluate(BEYOND) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= TALL_PHONE["width"]
    page.goto(f"/players/{me.name}/")
    page.wait_for_selector("table.board td")
    if SHOTS:
        page.screenshot(path=str(Path(SHOTS) / "player-phone.png"), full_page=True)
    assert page.evaluate(BEYOND) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= TALL_PHONE["width"]
