"""Whole sessions in the browser: against computers, two people at one table, leaving, playing
again, chatting, and playing with the keyboard alone."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .conftest import DESKTOP
from .pages import play_together


def computers_table(player, seats: int = 3, viewport=None):
    me = player(viewport) if viewport else player()
    me.open_table(seats=seats, target="1")
    me.add_computers(seats - 1)
    me.start()
    return me


def test_a_whole_session_against_computers_with_signals_and_words(player):
    me = computers_table(player)
    page = me.page
    expect(page.locator("#announcer")).to_contain_text(re.compile(r"plays the|takes the trick|Your"))
    page.evaluate(
        """() => {
            const region = document.getElementById("announcer");
            window.saidLog = [];
            new MutationObserver(() => window.saidLog.push(region.textContent))
                .observe(region, { childList: true, characterData: true, subtree: true });
        }"""
    )
    me.play_until_finished()
    said = " ".join(page.evaluate("window.saidLog"))
    assert re.search(r"\S+ plays the \w+ of \w+\.", said)
    assert re.search(r"\S+ takes the trick\.", said)
    assert "won deal 1" in said
    assert re.search(r"wins the session|share the win|draw", said)
    expect(page.locator(".result")).to_contain_text(re.compile(r"wins the session|share the win|draw"))
    assert int(page.locator("body").get_attribute("data-turn-sounds") or 0) >= 1  # the turn sound played
    assert page.title().endswith("Femkort Online")
    assert not page.title().startswith("Your turn")


def test_the_sound_switch_silences_the_turn_and_is_remembered(player):
    me = player()
    me.open_table(seats=3, target="1")
    switch = me.page.locator(".sound-switch button")
    expect(switch).to_have_attribute("aria-pressed", "true")
    switch.click()
    expect(me.page.locator(".sound-switch button")).to_have_attribute("aria-pressed", "false")
    me.page.reload()
    me.live()
    expect(me.page.locator(".sound-switch button")).to_have_attribute("aria-pressed", "false")
    me.add_computers(2)
    me.start()
    me.play_until_finished()
    assert me.page.locator("body").get_attribute("data-turn-sounds") is None


@pytest.mark.parametrize("locale", ["en-GB", "sv-SE", "ru-RU", "uk-UA", "es-ES", "it-IT"])
def test_keyboard_only_play_keeps_focus_on_the_hand_in_every_language(player, locale):
    me = player(locale=locale)
    me.open_table(seats=3, target="1")
    me.add_computers(2)
    me.start()
    page = me.page
    me.wait_for_turn()
    page.keyboard.press("ArrowRight")  # onto the hand
    said = page.locator("#announcer")
    assert page.evaluate("document.activeElement.closest('.hand') !== null")
    while not page.locator(".result").count():
        if page.locator("#table[data-my-turn]").count():
            cards = page.locator(".hand button.card")
            legal = [i for i in range(cards.count()) if cards.nth(i).get_attribute("aria-disabled") != "true"]
            at = page.evaluate("[...document.querySelectorAll('.hand button.card')].indexOf(document.activeElement)")
            seq = page.locator("#table").get_attribute("data-seq")
            if at in legal:
                page.keyboard.press("Enter")
            else:
                page.keyboard.press(str(legal[0] + 1))
            page.wait_for_selector(f"#table:not([data-seq='{seq}'])", state="attached")
            if page.locator(".hand button.card").count():
                # Focus stayed in the hand through the swap: no Tab needed for the next card.
                assert page.evaluate("document.activeElement.closest('.hand') !== null")
        page.wait_for_selector("#table[data-my-turn], .result")
    expect(page.locator(".result")).to_be_visible()
    expect(said).not_to_be_empty()  # the screen reader's view: plays and results were said


def test_cards_out_of_turn_are_inert_in_the_page(player):
    anna = player()
    url = anna.open_table(seats=3, target="1")
    bjorn = player()
    bjorn.sit_at(url, host=anna)
    anna.add_computers(1)
    anna.start()
    while not bjorn.page.locator("#table[data-my-turn]").count():
        if anna.page.locator("#table[data-my-turn]").count():
            anna.play_a_card()
        bjorn.page.wait_for_timeout(50)
    seq = anna.page.locator("#table").get_attribute("data-seq")
    card = anna.page.locator(".hand button.card").first
    expect(card).to_have_attribute("aria-disabled", "true")
    card.click(force=True)  # a player clicks it all the same
    expect(anna.page.locator(".dock .hand-note")).to_have_text("It is not your turn.")  # said next to the hand
    assert anna.page.locator("#table").get_attribute("data-seq") == seq  # nothing was sent, nothing changed
    expect(anna.page.locator("#table-message")).to_be_hidden()


def test_two_players_at_one_table_over_websockets_with_chat(player):
    anna = player()
    url = anna.open_table(seats=3, target="1")
    bjorn = player(DESKTOP)
    bjorn.sit_at(url, host=anna)
    expect(anna.page.locator(f".seat:has-text('{bjorn.name}') .presence.online")).to_be_visible()
    anna.add_computers(1)
    anna.start()
    expect(bjorn.page.locator(".felt")).to_be_visible()  # pushed, not reloaded

    anna.page.fill("#chat-text", "Good luck <b>all</b>")
    anna.page.keyboard.press("Enter")
    expect(bjorn.page.locator("#chat-log")).to_contain_text("Good luck <b>all</b>")
    expect(anna.page.locator("#chat-text")).to_have_value("")
    bjorn.page.fill("#chat-text", "thanks")
    bjorn.page.get_by_role("button", name="Send").click()
    expect(anna.page.locator("#chat-log")).to_contain_text("thanks")
    anna.page.get_by_role("button", name=f"Mute {bjorn.name} at every table (only for you)").first.click()
    expect(anna.page.locator("#chat-log")).not_to_contain_text("thanks")
    expect(anna.page.locator("#chat .chat-note")).to_contain_text("at every table")  # says what muting does
    bjorn.page.fill("#chat-text", "still there?")
    bjorn.page.keyboard.press("Enter")
    expect(bjorn.page.locator("#chat-log")).to_contain_text("still there?")
    # Anna's own line comes to her through the same socket, after Bjorn's: once it is there,
    # his would have been too.
    anna.page.fill("#chat-text", "after the muted line")
    anna.page.keyboard.press("Enter")
    expect(anna.page.locator("#chat-log")).to_contain_text("after the muted line")
    expect(anna.page.locator("#chat-log")).not_to_contain_text("still there?")

    play_together([anna, bjorn])
    expect(bjorn.page.locator(".result")).to_have_text(anna.page.locator(".result").inner_text())


def test_chat_rate_limit_and_the_hosts_switch(player):
    anna = player()
    url = anna.open_table(seats=3, target="1")
    bjorn = player()
    bjorn.sit_at(url, host=anna)
    for number in range(6):
        bjorn.page.fill("#chat-text", f"line {number}")
        bjorn.page.keyboard.press("Enter")
    expect(bjorn.page.locator("#chat .chat-note")).to_contain_text("too fast")  # beside the chat box
    expect(bjorn.page.locator("#chat-text")).to_have_value("line 5")  # the refused line stays, to send again
    expect(bjorn.page.locator("#table-message")).to_be_hidden()
    expect(anna.page.locator("#chat-log li")).to_have_count(5)
    anna.page.get_by_role("button", name="Turn chat off for this table").click()
    expect(bjorn.page.locator("#chat")).to_contain_text("The host has turned chat off at this table.")
    expect(bjorn.page.locator("#chat-text")).to_have_count(0)


def test_a_player_leaves_and_a_computer_plays_the_seat_to_the_end(player):
    anna = player()
    url = anna.open_table(seats=3, target="1")
    bjorn = player()
    bjorn.sit_at(url, host=anna)
    anna.add_computers(1)
    anna.start()
    expect(bjorn.page.locator(".felt")).to_be_visible()
    bjorn.page.get_by_role("link", name="Leave this session…").click()
    bjorn.page.get_by_role("button", name="Leave the session").click()
    expect(anna.page.locator(".felt")).to_contain_text(f"{bjorn.name} left; the computer plays this seat to the end")
    anna.play_until_finished()
    expect(anna.page.locator(".result")).to_be_visible()


def test_play_again_opens_a_new_table_with_the_same_seats(player):
    me = computers_table(player)
    me.play_until_finished()
    me.page.get_by_role("button", name="Play again").click()
    me.page.wait_for_url(re.compile(r"/tables/\d+/$"))
    me.live()
    expect(me.page.locator(".seat")).to_have_count(3)
    expect(me.page.locator(".seat.empty")).to_have_count(0)
    me.start()
    me.play_until_finished()
