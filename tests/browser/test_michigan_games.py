"""Michigan played to the end in the browser: the spread ante by its compact list, the widow's sale
by buttons, runs laid out by suit, boodles with their chips, who must play and why, and exports that
replay through the engine; a card out of play never reaches a page."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from .pages import play_together
from .test_auction_games import _exports_replay


def test_michigan_for_four_against_three_computers_with_spread_antes(player):
    me = player()
    me.open_table(game="michigan", seats=4, ante_spread=True)
    me.add_computers(3)
    me.start()
    page = me.page
    seen = {"list": False, "boodles": False, "layout": False, "sale": False}

    def look() -> None:
        listed = page.locator("#choices-list select option")
        if listed.count() and not seen["list"]:
            assert listed.count() == 164
            assert page.locator("#choices-form button.primary").count() == 1
            # Spread by the list: everything on the ace of hearts.
            page.locator("#choices-list select").select_option("ante:8,0,0,0")
            seq = page.locator("#table").get_attribute("data-seq")
            page.locator("#choices-list button[type=submit]").click()
            page.wait_for_selector(f"#table:not([data-seq='{seq}'])", state="attached")
            seen["list"] = True
        seen["boodles"] |= page.locator(".row-area.boodles .counters").count() > 0
        seen["layout"] |= page.locator(".layout-area .layout-row .card").count() > 0
        # The dealer's decision: its buttons, or (when this page's own click took it between checks)
        # the deal's record in the header, which says the widow was sold or taken.
        seen["sale"] |= page.locator(".choices button[data-action=sell]").count() > 0
        seen["sale"] |= page.locator(".bidding li:has-text('the widow')").count() > 0

    play_together([me], check=look, minutes=10)
    assert all(seen.values()), seen
    expect(me.page.locator(".result")).to_be_visible()
    assert _exports_replay(me) >= 4


def test_michigan_for_three_with_a_friend(player):
    anna, bo = player(), player()
    url = anna.open_table(game="michigan", seats=3)
    bo.sit_at(url, position=1, host=anna)
    anna.add_computers(1)
    anna.start()
    seen = {"holds": False}

    def look() -> None:
        for someone in (anna, bo):
            prompt = someone.page.locator(".prompt")
            if prompt.count() and re.search(r" holds the ", prompt.first.inner_text()):
                seen["holds"] = True

    play_together([anna, bo], check=look, minutes=10)
    assert seen["holds"]
    for someone in (anna, bo):
        expect(someone.page.locator(".result")).to_be_visible()
    assert _exports_replay(anna) >= 3
