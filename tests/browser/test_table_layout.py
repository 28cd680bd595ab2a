"""The table fits the screen: every seat, the trick and the hand in view on a phone (up to six
players) and on a desktop, above the docked bar whether it holds bids, calls or cards; at ten
players at most one short scroll."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from .conftest import DESKTOP, PHONE, TALL_PHONE
from .test_phone_sessions import my_seat_covered

SHOTS = os.environ.get("FEMKORT_SCREENSHOTS")  # a folder: save each layout there (the pictures of docs/playing.md)


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


def covering_the_trick(page) -> list[tuple[str, str]]:
    """Trick cards that a seat's box covers, even at a corner: (seat, card)."""
    return page.evaluate(
        """() => {
            const hits = [];
            const seats = [...document.querySelectorAll(".felt .seat")];
            for (const card of document.querySelectorAll(".felt .trick .card")) {
                const c = card.getBoundingClientRect();
                for (const seat of seats) {
                    const s = seat.getBoundingClientRect();
                    if (c.right - 1 > s.left && s.right - 1 > c.left && c.bottom - 1 > s.top && s.bottom - 1 > c.top) {
                        hits.push([seat.dataset.seat, card.dataset.card || card.dataset.previousDealCard]);
                    }
                }
            }
            return hits;
        }"""
    )


def settled(page) -> None:
    """The table as it stays: the felt fitted between header and bar, the newest card arrived."""
    page.wait_for_selector(".felt[data-fitted]", state="attached")
    page.wait_for_function("() => document.getAnimations().every((a) => a.playState !== 'running')")


def seat_at_my_turn(player, seats: int, viewport: dict):
    me = player(viewport)
    me.open_table(seats=seats)
    me.add_computers(seats - 1)
    me.start()
    me.wait_for_turn()
    while not me.page.locator(".felt .trick .card").count():  # my lead: play once, for cards in the middle
        me.play_a_card()
        me.wait_for_turn()
    settled(me.page)
    return me


@pytest.mark.parametrize("seats", [4, 6])
def test_on_a_phone_every_seat_the_trick_and_the_hand_are_in_view(player, seats):
    me = seat_at_my_turn(player, seats, PHONE)
    page = me.page
    page.goto(page.url)  # as the page opens (the chat is further down)
    me.live()
    settled(page)
    assert page.evaluate("window.scrollY") == 0
    if SHOTS:
        page.screenshot(path=str(Path(SHOTS) / f"table-phone-{seats}.png"))
    assert page.locator(".felt .seat").count() == seats
    assert page.locator(".felt .trick .card").count() >= 1
    assert in_view(page, ".felt .seat, .felt .trick .card, .hand button.card, .prompt") == []
    assert overlapping(page, ".felt .seat") == []
    assert covering_the_trick(page) == []
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
    assert covering_the_trick(page) == []
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


def _at_my_decision(player, game: str, viewport: dict, locale: str = "en-GB"):
    """A four-seat table of ``game`` against computers, at this player's bid or call (Nap,
    Euchre) or card (Letzter Stich), with a turn clock running."""
    me = player(viewport, locale=locale)
    me.against_computers(game=game, seats=4, clock="60", **({"rounds": "1"} if game == "nap" else {}))
    if game == "letzter_stich":
        me.wait_for_turn()
    elif game == "euchre":  # making trump: ordering up or calling a suit, not the dealer's discard
        me.until_choices(".choices button[data-action=order], .choices button[data-action^='call:']")
    else:
        me.until_choices()
    settled(me.page)
    return me


def box_of(page, selector: str) -> dict:
    """Where ``selector`` is on screen. A push may swap the table in just as it is measured (the
    old element is gone, the new one not yet laid out): then wait for it to be shown again."""
    for _ in range(20):
        expect(page.locator(selector)).to_be_visible()
        box = page.locator(selector).bounding_box()
        if box is not None:
            return box
    raise AssertionError(f"{selector} never stayed on screen long enough to be measured")


def _my_seat(page) -> str:
    return f'.felt .seat[data-seat="{page.locator("#table").get_attribute("data-me")}"]'


@pytest.mark.parametrize(
    ("game", "viewport", "locale"),
    [
        ("nap", TALL_PHONE, "en-GB"),
        ("nap", TALL_PHONE, "ru-RU"),
        ("nap", DESKTOP, "en-GB"),
        ("euchre", TALL_PHONE, "en-GB"),
        ("euchre", DESKTOP, "en-GB"),
        ("letzter_stich", TALL_PHONE, "en-GB"),
        ("letzter_stich", DESKTOP, "en-GB"),
    ],
    ids=["nap-phone", "nap-phone-ru", "nap-desktop", "euchre-phone", "euchre-desktop", "stich-phone", "stich-desktop"],
)
def test_the_bar_never_covers_a_seat_or_your_clock(player, game, viewport, locale):
    me = _at_my_decision(player, game, viewport, locale)
    page = me.page
    page.evaluate("window.scrollTo(0, 0)")
    label = "phone" if viewport is TALL_PHONE else "desktop"
    if SHOTS and locale == "en-GB":
        moment = {"nap": "bid", "euchre": "call", "letzter_stich": "hand"}[game]
        page.screenshot(path=str(Path(SHOTS) / f"{game}-{moment}-{label}.png"))
    dock = box_of(page, ".dock")
    assert dock["height"] <= viewport["height"] * 0.3, dock  # a bar, not half the screen
    assert in_view(page, ".felt .seat, .prompt, .choices button, .hand button.card") == []
    assert below_the_dock(page) == []
    assert overlapping(page, ".felt .seat") == []
    mine = _my_seat(page)
    for part in (".badge.turn", ".clock", ".seat-facts"):
        box = page.locator(f"{mine} {part}").bounding_box()
        assert box is not None, part
        assert box["y"] >= 0, part
        assert box["y"] + box["height"] <= dock["y"], part
    expect(page.locator(f"{mine} .clock")).to_have_text(re.compile(r"\d"))
    if viewport is DESKTOP:
        assert in_view(page, "#chat-form") == []  # the chat beside the table, not below the fold


def test_on_a_desktop_no_seat_covers_a_card_of_the_trick(player):
    """At four seats the top seat's box once hid a corner of the card it played."""
    me = player(DESKTOP)
    me.against_computers(game="euchre", seats=4)
    page = me.page
    across = None
    while True:
        me.wait_for_turn(timeout=90_000)
        if across is None:
            across = (int(page.locator("#table").get_attribute("data-me")) + 2) % 4
        if page.locator(f'.felt .trick figure[data-seat="{across}"]').count():
            break
        passing = page.locator(".choices button[data-action=pass]")
        if passing.count():  # never go alone here: the partner across must play
            seq = page.locator("#table").get_attribute("data-seq")
            passing.click()
            page.wait_for_selector(f"#table:not([data-seq='{seq}'])", state="attached")
        else:
            me.play_a_card()
    settled(page)
    assert covering_the_trick(page) == []
    assert below_the_dock(page) == []


LANGUAGES = ["en-GB", "sv-SE", "ru-RU", "uk-UA", "es-ES", "it-IT"]


def _apart(one: dict, other: dict) -> bool:
    """Two boxes that do not intersect (touching edges allowed)."""
    return (
        one["x"] + one["width"] <= other["x"] + 1
        or other["x"] + other["width"] <= one["x"] + 1
        or one["y"] + one["height"] <= other["y"] + 1
        or other["y"] + other["height"] <= one["y"] + 1
    )


@pytest.mark.parametrize("viewport", [TALL_PHONE, DESKTOP], ids=["phone", "desktop"])
@pytest.mark.parametrize("locale", LANGUAGES)
def test_the_draw_marks_cards_in_the_hand_and_never_covers_your_seat(player, locale, viewport):
    """Auction Forty-Five's draw: the cards to discard are marked in the hand itself and one button
    says what it will do; the bar stays below your own seat in every language."""
    me = player(viewport, locale=locale)
    me.against_computers(game="auction_forty_five", seats=4)
    page = me.page
    while True:  # pass in every auction until a deal's draw comes to this player
        me.wait_for_turn(timeout=90_000)
        if page.locator(".hand .mark-done").count():
            break
        passing = page.locator(".choices button[data-action=pass]")
        if passing.count():
            me._click(passing, "data-action")
        else:
            me.play_a_card()
    settled(page)
    page.evaluate("window.scrollTo(0, 0)")
    done = page.locator(".hand .mark-done")
    assert page.locator(".choices button").count() == 0  # no button per card
    cards = page.locator(".hand label.card")
    assert cards.count() == 5
    for index in (0, 2, 4):
        cards.nth(index).click()
    expect(done).to_have_text(done.get_attribute("data-marked-3"))
    assert page.locator(".hand input[name=marked]:checked").count() == 3
    cards.nth(2).click()  # and unmarked again
    expect(done).to_have_text(done.get_attribute("data-marked-2"))
    page.keyboard.press("2")  # the keys mark too, as they play a card
    expect(done).to_have_text(done.get_attribute("data-marked-3"))
    page.keyboard.press("2")
    expect(done).to_have_text(done.get_attribute("data-marked-2"))
    label = "phone" if viewport is TALL_PHONE else "desktop"
    if SHOTS:
        page.screenshot(path=str(Path(SHOTS) / f"auction-forty-five-draw-{label}-{locale[:2]}.png"))
    dock = box_of(page, ".dock")
    mine = box_of(page, _my_seat(page))
    assert _apart(mine, dock), (mine, dock)
    assert in_view(page, ".felt .seat, .prompt, .hand label.card, .hand .mark-done") == []
    assert below_the_dock(page) == []
    assert overlapping(page, ".felt .seat") == []
    seq = page.locator("#table").get_attribute("data-seq")
    done.click()  # two cards discarded and two drawn, in one move
    page.wait_for_selector(f"#table:not([data-seq='{seq}'])", state="attached")
    expect(page.locator(".hand .mark-done")).to_have_count(0)


@pytest.mark.parametrize("viewport", [TALL_PHONE, DESKTOP], ids=["phone", "desktop"])
def test_at_two_seats_the_opponent_sits_opposite(player, viewport):
    me = player(viewport)
    me.against_computers(game="forty_five", seats=2)
    page = me.page
    settled(page)
    mine = box_of(page, _my_seat(page))
    theirs = box_of(page, f'.felt .seat:not([data-seat="{page.locator("#table").get_attribute("data-me")}"])')
    assert theirs["y"] + theirs["height"] <= mine["y"], (theirs, mine)  # above
    assert abs((theirs["x"] + theirs["width"] / 2) - (mine["x"] + mine["width"] / 2)) <= 1, (theirs, mine)


def touching(page, one: str, other: str, gap: float = 0) -> list[tuple[str, str]]:
    """Elements of ``one`` and of ``other`` whose boxes meet, or come closer than ``gap`` pixels."""
    return page.evaluate(
        """([one, other, gap]) => {
            const hits = [];
            for (const a of document.querySelectorAll(one)) for (const b of document.querySelectorAll(other)) {
                const p = a.getBoundingClientRect(), q = b.getBoundingClientRect();
                const apart = p.right + gap <= q.left || q.right + gap <= p.left
                    || p.bottom + gap <= q.top || q.bottom + gap <= p.top;
                if (!apart) hits.push([a.outerHTML.slice(0, 60), b.outerHTML.slice(0, 60)]);
            }
            return hits;
        }""",
        [one, other, gap],
    )


@pytest.mark.parametrize("viewport", [TALL_PHONE, DESKTOP], ids=["phone", "desktop"])
def test_who_takes_the_trick_is_said_beside_its_cards_not_over_them(player, viewport):
    me = player(viewport)
    me.against_computers(game="femkort", seats=4)
    page = me.page
    note = page.locator("#table[data-my-turn] .felt-note.trick-taken")
    while True:  # play until this player leads after a trick taken, the banner on show
        me.wait_for_turn(timeout=30_000)
        if note.count():
            break
        me.play_a_card()
    settled(page)
    label = "phone" if viewport is TALL_PHONE else "desktop"
    if SHOTS:
        page.screenshot(path=str(Path(SHOTS) / f"trick-taken-{label}.png"))
    assert page.locator(".felt .trick.taken .card").count() == 4
    assert touching(page, ".felt-note.trick-taken", ".felt .trick .card") == []
    assert touching(page, ".felt-note.trick-taken", ".felt .seat") == []


# Michigan's played cards, a row per suit, each as long as a suit can run (two to ace), measured at
# once (a push may swap the middle of the table in again): the rows that meet a seat or leave the window.
FULL_ROWS = """(gap) => {
    const area = document.querySelector(".felt .layout-area");
    const rows = [...area.querySelectorAll(".layout-row")];
    const card = rows[0].querySelector(".card");
    while (rows.length < 4) rows.push(area.appendChild(rows[0].cloneNode(false)));
    for (const row of rows) while (row.children.length < 13) row.append(card.cloneNode(true));
    const hits = [];
    for (const row of rows) for (const seat of document.querySelectorAll(".felt .seat")) {
        const p = row.getBoundingClientRect(), q = seat.getBoundingClientRect();
        const apart = p.right + gap <= q.left || q.right + gap <= p.left
            || p.bottom + gap <= q.top || q.bottom + gap <= p.top;
        if (!apart) hits.push(seat.dataset.seat);
    }
    const cards = [...area.querySelectorAll(".card")].map((c) => c.getBoundingClientRect());
    const out = cards.filter((c) => c.left < 0 || c.top < 0 || c.right > innerWidth || c.bottom > innerHeight);
    return {cards: cards.length, hits: hits, out: out.length};
}"""


@pytest.mark.parametrize("seats", [3, 4, 6])
@pytest.mark.parametrize("viewport", [TALL_PHONE, DESKTOP], ids=["phone", "desktop"])
def test_michigans_rows_of_played_cards_keep_clear_of_the_seats(player, seats, viewport):
    me = player(viewport)
    me.against_computers(game="michigan", seats=seats)
    page = me.page
    while True:  # ante, and play, until a card lies in the middle at this player's turn (all waits for it)
        me.wait_for_turn(timeout=90_000)
        if page.locator(".felt .layout-area .layout-row .card").count():
            break
        me.play_a_card()
    settled(page)
    measured = page.evaluate(FULL_ROWS, 4)  # whatever was played so far: four rows of thirteen
    label = "phone" if viewport is TALL_PHONE else "desktop"
    if SHOTS:
        page.screenshot(path=str(Path(SHOTS) / f"michigan-rows-{label}-{seats}.png"))
    assert measured == {"cards": 4 * 13, "hits": [], "out": 0}


def test_a_header_too_tall_for_the_felt_scrolls_away_and_the_bar_never_covers_your_seat(player):
    """A long header (Seven Up's refused cards, a long log) leaves the felt less than its least
    height on a phone: the page scrolls the header away rather than let the bar cover the seat."""
    me = player(TALL_PHONE)
    me.against_computers(game="seven_up", seats=2)
    me.wait_for_turn()
    settled(me.page)
    me.page.evaluate(
        """() => {
            const head = document.getElementById("table-head");
            for (let line = 0; line < 12; line += 1) {
                const said = document.createElement("p");
                said.textContent = "A long line of the header " + line;
                head.append(said);
            }
            document.dispatchEvent(new CustomEvent("htmx:load", {detail: {elt: head}}));
        }"""
    )
    assert my_seat_covered(me.page) is None
