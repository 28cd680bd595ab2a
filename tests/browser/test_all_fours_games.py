"""Seven Up, Pitch and Smudge played to the end in the browser: the turn-up and the stock on the table,
begging and bidding by buttons, partners, and exports that replay through the engine."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .pages import Player, play_together
from .test_auction_games import _exports_replay


def test_seven_up_in_partnerships_with_a_friend_against_two_computers(player):
    anna, bo = player(), player()
    url = anna.open_table(game="seven_up", seats=4, partnerships=True)
    bo.sit_at(url, position=2, host=anna)
    anna.add_computers(2)
    anna.start()
    seen = {"partner": False, "turn-up": False, "stock": False}

    def look() -> None:
        for someone in (anna, bo):
            page = someone.page
            seen["partner"] |= page.locator(f".seat[data-seat='0'] .partner:has-text('{bo.name}')").count() > 0
            seen["turn-up"] |= page.locator(".turn-up .card").count() > 0
            seen["stock"] |= page.locator(".pile-area.stock .pile-count").count() > 0

    play_together([anna, bo], check=look)
    assert all(seen.values()), seen
    for someone in (anna, bo):
        expect(someone.page.locator(".result")).to_contain_text("partners")
    assert _exports_replay(anna) >= 1


@pytest.mark.parametrize(("game", "seats"), [("pitch", 4), ("smudge", 3)])
def test_pitch_and_smudge_against_computers(player, game, seats):
    me: Player = player()
    me.open_table(game=game, seats=seats)
    me.add_computers(seats - 1)
    me.start()
    seen = {"bid": False}

    def look() -> None:
        seen["bid"] |= me.page.locator(".choices button[data-action^='bid:']").count() > 0

    play_together([me], check=look)
    assert seen["bid"]
    expect(me.page.locator(".result")).to_be_visible()
    assert _exports_replay(me) >= 1
