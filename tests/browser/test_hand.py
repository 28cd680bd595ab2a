"""The hand in the docked bar: cards keep their suit colours whether or not they may be played,
the playable ones stand up, and a whole hand fits a phone's width."""

from __future__ import annotations

from .conftest import TALL_PHONE

RED = "rgb(193, 18, 31)"

FACES = """(cards) => cards.map((card) => {
    const style = getComputedStyle(card);
    return {
        card: card.dataset.card, red: card.classList.contains("red"), disabled: card.getAttribute("aria-disabled"),
        color: style.color, filter: style.filter, opacity: style.opacity, transform: style.transform,
        shadow: style.boxShadow,
    };
})"""


def test_cards_you_cannot_play_keep_their_suit_colours(player):
    me = player(TALL_PHONE)
    me.against_computers(game="nap", seats=4, rounds="1")
    page = me.page
    page.wait_for_selector("#table[data-my-turn] .choices button")  # bidding: no card may be played yet
    # Whatever was dealt, one card is drawn as a red suit's for the colour it gets.
    page.evaluate("document.querySelector('.hand button.card').classList.add('red')")
    faces = page.eval_on_selector_all(".hand button.card", FACES)
    assert faces
    assert all(face["disabled"] == "true" for face in faces)
    for face in faces:
        assert face["filter"] == "none", face
        assert face["opacity"] == "1", face
        assert face["transform"] == "none", face  # down: not playable
        if face["red"]:
            assert face["color"] == RED, face


def test_the_cards_you_may_play_stand_up_outlined(player):
    me = player(TALL_PHONE)
    me.against_computers(game="letzter_stich", seats=4)
    page = me.page
    page.wait_for_selector("#table[data-my-turn] .hand button.card:not([aria-disabled=true])")
    faces = page.eval_on_selector_all(".hand button.card", FACES)
    playable = [face for face in faces if face["disabled"] != "true"]
    assert playable
    for face in faces:
        assert face["filter"] == "none", face
        assert face["opacity"] == "1", face
        if face in playable:
            assert face["transform"] != "none", face  # raised
            assert "255, 215, 122" in face["shadow"], face  # and outlined in gold
        else:
            assert face["transform"] == "none", face


ROW = """() => {
    const row = document.querySelector(".hand .cards");
    const cards = [...row.querySelectorAll("button.card")].map((card) => card.getBoundingClientRect());
    return {
        count: cards.length, width: innerWidth, scrolls: row.scrollWidth > row.clientWidth,
        lefts: cards.map((box) => box.left), rights: cards.map((box) => box.right),
    };
}"""


def _fits(row: dict) -> None:
    """Every card of the row is on screen, none scrolled out of sight, and each shows at least its
    corner (the index and suit, about 22 px) before the next card covers it."""
    assert not row["scrolls"], row
    assert min(row["lefts"]) >= 0, row
    assert max(row["rights"]) <= row["width"], row
    steps = [b - a for a, b in zip(row["lefts"], row["lefts"][1:], strict=False)]
    assert min(steps, default=99) >= 22, row


def test_eight_cards_fit_a_phone_and_six_or_thirteen_fan_out(player):
    me = player(TALL_PHONE)
    me.against_computers(game="letzter_stich", seats=4)  # four players: eight cards each
    page = me.page
    page.wait_for_selector("#table[data-my-turn]")
    row = page.evaluate(ROW)
    assert row["count"] == 8
    _fits(row)
    # The All Fours games deal six, Michigan thirteen: the same row with that many cards.
    for count in (6, 13):
        page.evaluate(
            """(count) => {
                const row = document.querySelector(".hand .cards");
                const cards = [...row.querySelectorAll("button.card")];
                while (row.children.length > count) row.lastElementChild.remove();
                while (row.children.length < count) {
                    row.append(cards[row.children.length % cards.length].cloneNode(true));
                }
            }""",
            count,
        )
        row = page.evaluate(ROW)
        assert row["count"] == count
        _fits(row)
