"""The table fits the screen: every seat, the trick and the hand in view on a phone (up to six
players) and on a desktop; at ten players at most one short scroll."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from .conftest import DESKTOP, PHONE

SHOTS = os.environ.get("FEMKORT_SCREENSHOTS")  # a folder: save each layout there (the README's pictures)


def in_view(page, selector: str) -> list[str]:
    """The elements matching ``selector`` that are not wholly inside the window."""
    return page.eval_on_selector_all(
        selector,
        """(elements) => elements.filter((e) => {
            const box = e.getBoundingClientRect();
            return box.top < 0 || box.left < 0 || box.bottom > innerHeight || box.right > innerWidth;
        }).map((e) => e.outerHTML.slice(0, 80))""",
    )


def overlapping(page, selector: str) -> list[tuple[str, str]]:
    return page.eval_on_selector_all(
        selector,
        """(elements) => {
            const boxes = elements.map((e) => [e.dataset.seat, e.getBoundingClientRect()]);
            const hits = [];
            for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
                const [a, p] = boxes[i], [b, q] = boxes[j];
                const apart = p.right - 1 <= q.left || q.right - 1 <= p.left
                    || p.bottom - 1 <= q.top || q.bottom - 1 <= p.top;
                if (!apart) hits.push([a, b]);
            }
            return hits;
        }""",
    )


def below_the_dock(page) -> list[str]:
    """Seats and trick cards hidden behind the docked hand (the dock is drawn over the table)."""
    return page.eval_on_selector_all(
        ".felt .seat, .felt .trick .card",
        """(elements) => {
            const dock = document.querySelector(".dock").getBoundingClientRect().top;
            const hidden = elements.filter((e) => e.getBoundingClientRect().bottom > dock + 1);
            return hidden.map((e) => e.outerHTML.slice(0, 60));
        }""",
    )


def seat_at_my_turn(player, seats: int, viewport: dict):
    me = player(viewport)
    me.open_table(seats=seats)
    me.add_computers(seats - 1)
    me.start()
    me.wait_for_turn()
    while not me.page.locator(".felt .trick .card").count():  # my lead: play once, for cards in the middle
        me.play_a_card()
        me.wait_for_turn()
    me.page.wait_for_timeout(400)  # the newest card's slide
    return me


@pytest.mark.parametrize("seats", [4, 6])
def test_on_a_phone_every_seat_the_trick_and_the_hand_are_in_view(player, seats):
    me = seat_at_my_turn(player, seats, PHONE)
    page = me.page
    page.goto(page.url)  # as the page opens (the chat is further down)
    me.live()
    assert page.evaluate("window.scrollY") == 0
    if SHOTS:
        page.screenshot(path=str(Path(SHOTS) / f"table-phone-{seats}.png"))
    assert page.locator(".felt .seat").count() == seats
    assert page.locator(".felt .trick .card").count() >= 1
    assert in_view(page, ".felt .seat, .felt .trick .card, .hand button.card, .prompt") == []
    assert overlapping(page, ".felt .seat") == []
    assert below_the_dock(page) == []
    widths = page.eval_on_selector_all(
        ".hand button.card", "(cards) => cards.map((c) => c.getBoundingClientRect().width)"
    )
    assert widths
    assert min(widths) >= 44
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_on_a_phone_ten_seats_need_at_most_one_short_scroll(player):
    me = seat_at_my_turn(player, 10, PHONE)
    page = me.page
    felt_bottom = page.evaluate("document.querySelector('.felt').getBoundingClientRect().bottom + scrollY")
    assert felt_bottom <= PHONE["height"] * 1.5  # the table itself, not the chat below it
    assert overlapping(page, ".felt .seat") == []
    page.evaluate("window.scrollTo(0, 0)")
    assert in_view(page, ".hand button.card") == []  # the hand is docked at the bottom, wherever the page is
    if SHOTS:
        page.screenshot(path=str(Path(SHOTS) / "table-phone-10.png"), full_page=True)


def test_on_a_desktop_the_whole_table_is_in_view(player):
    me = seat_at_my_turn(player, 6, DESKTOP)
    page = me.page
    assert in_view(page, ".felt .seat, .felt .trick .card, .hand button.card, .table-head") == []
    assert overlapping(page, ".felt .seat") == []
    assert below_the_dock(page) == []
    if SHOTS:
        page.screenshot(path=str(Path(SHOTS) / "table-desktop-6.png"))


def test_my_seat_is_at_the_bottom_and_the_next_seat_to_my_left(player):
    me = seat_at_my_turn(player, 4, PHONE)
    boxes = me.page.eval_on_selector_all(
        ".felt .seat",
        "(seats) => Object.fromEntries(seats.map((s) => [s.dataset.seat, s.getBoundingClientRect().toJSON()]))",
    )
    mine = int(me.page.locator("#table").get_attribute("data-me"))
    after = str((mine + 1) % 4)
    across = str((mine + 2) % 4)
    assert boxes[str(mine)]["top"] == max(box["top"] for box in boxes.values())  # at the bottom
    assert boxes[after]["left"] == min(box["left"] for box in boxes.values())  # clockwise: next on my left
    assert boxes[across]["top"] == min(box["top"] for box in boxes.values())
