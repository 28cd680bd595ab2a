"""The lobby's form for a new table, as a browser shows it: an option that needs another only
while that one is on, each checkbox beside its label, and no seat count to choose where there is
none."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import DESKTOP, TALL_PHONE


@pytest.mark.parametrize("viewport", [TALL_PHONE, DESKTOP], ids=["phone", "desktop"])
def test_options_show_when_they_matter_and_each_checkbox_sits_by_its_label(player, viewport):
    page = player(viewport).page
    page.goto("/?game=femkort")
    stack = page.locator("#id_stack")
    expect(stack).to_be_hidden()  # "Chips each" means nothing without pot play
    page.locator("#id_pot").check()
    expect(stack).to_be_visible()
    page.locator("#id_pot").uncheck()
    expect(stack).to_be_hidden()
    boxes = page.locator("form.stacked input[type=checkbox]")
    assert boxes.count() >= 3
    for index in range(boxes.count()):
        box = boxes.nth(index).bounding_box()
        label = page.locator(f"label[for='{boxes.nth(index).get_attribute('id')}']").bounding_box()
        assert 0 <= label["x"] - (box["x"] + box["width"]) <= 16, (box, label)  # right after the box
        assert abs((label["y"] + label["height"] / 2) - (box["y"] + box["height"] / 2)) <= 6, (box, label)


def test_euchre_has_no_seat_count_to_edit(player):
    page = player(TALL_PHONE).page
    page.goto("/?game=euchre")
    expect(page.locator("input[name=seats]")).to_be_hidden()
    expect(page.locator(".fixed-seats")).to_contain_text("4")
    expect(page.locator(".game-choice")).not_to_contain_text("4 to 4")
