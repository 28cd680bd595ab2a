"""A replay as a browser shows it: the trick in a row, as it lay on the table."""

from __future__ import annotations

from .conftest import DESKTOP


def test_a_replays_trick_lies_in_a_row(player):
    me = player(DESKTOP)
    me.against_computers(game="femkort", seats=3, target="1")
    me.play_until_finished()
    page = me.page
    page.locator(".result a").first.click()  # "Deals and replays"
    page.locator("a[href*='/replay/']").first.click()
    page.goto(page.url.split("?")[0] + "?step=3")  # a whole first trick of three cards
    boxes = page.eval_on_selector_all(
        "main .trick figure", "(figures) => figures.map((f) => f.getBoundingClientRect().toJSON())"
    )
    assert len(boxes) == 3
    assert len({round(box["top"]) for box in boxes}) == 1  # side by side, not stacked
    assert [box["left"] for box in boxes] == sorted(box["left"] for box in boxes)
