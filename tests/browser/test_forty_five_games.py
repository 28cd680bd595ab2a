"""Auction Forty-Five and Forty-Five played to the end in the browser: bids, the draw and robbing by
buttons, partners, the stock and the turned card on the table, and exports that replay through the engine."""

from __future__ import annotations

from playwright.sync_api import expect

from .pages import Player, play_together
from .test_auction_games import _exports_replay


def test_auction_forty_five_with_a_friend_as_partner_against_two_computers(player):
    anna, bo = player(), player()
    url = anna.open_table(game="auction_forty_five", seats=4, points="45")  # the short session
    bo.sit_at(url, position=2, host=anna)
    anna.add_computers(2)
    anna.start()
    seen = {"partner": False, "stock": False, "bid": False, "draw": False}

    def look() -> None:
        for someone in (anna, bo):
            page = someone.page
            seen["partner"] |= page.locator(f".seat[data-seat='0'] .partner:has-text('{bo.name}')").count() > 0
            seen["stock"] |= page.locator(".pile-area.stock .pile-count").count() > 0
            seen["bid"] |= page.locator(".choices button[data-action^='bid:']").count() > 0
            seen["draw"] |= page.locator(".hand button.mark-done[data-action='draw']").count() > 0

    play_together([anna, bo], check=look, minutes=10)
    assert all(seen.values()), seen
    for someone in (anna, bo):
        expect(someone.page.locator(".result")).to_contain_text("partners")
    assert _exports_replay(anna) >= 1


def test_forty_five_for_two_against_a_computer(player):
    me: Player = player()
    me.open_table(game="forty_five", seats=2, points="25")
    me.add_computers(1)
    me.start()
    seen = {"upcard": False}

    def look() -> None:
        seen["upcard"] |= me.page.locator(".upcard .card").count() > 0

    play_together([me], check=look, minutes=10)
    assert seen["upcard"]
    expect(me.page.locator(".result")).to_be_visible()
    assert _exports_replay(me) >= 1
