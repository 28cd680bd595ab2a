"""What the table says around the cards: the clock in the page's language, why a card was refused
(next to the hand), and who is still there."""

from __future__ import annotations

import re

from django.utils import translation
from django.utils.translation import pgettext
from playwright.sync_api import expect

from .conftest import TALL_PHONE


def test_the_turn_clock_counts_in_the_pages_language(player):
    me = player(TALL_PHONE, locale="ru-RU")
    me.against_computers(game="letzter_stich", seats=3, clock="60")
    me.wait_for_turn()
    with translation.override("ru"):
        unit = pgettext("seconds left on the turn clock", "%(seconds)s s") % {"seconds": ""}
    assert unit.strip() not in ("", "s")
    clock = me.page.locator(".seat-top.to-act .clock")
    expect(clock).to_have_text(re.compile(rf"^\d+{re.escape(unit)}$"))  # in Russian as the header says "60 s per move"


def test_a_refused_card_says_why_next_to_the_hand(player):
    me = player(TALL_PHONE)
    me.against_computers(game="nap", seats=3, rounds="1")
    page = me.page
    page.wait_for_selector("#table[data-my-turn] .choices button")  # bidding: no card may be played yet
    note = page.locator(".dock .hand-note")
    expect(note).to_be_hidden()
    seq = page.locator("#table").get_attribute("data-seq")
    page.locator(".hand button.card").first.click(force=True)  # a card that may not be played now
    expect(note).to_have_text("The bidding comes first: choose one of the buttons.")
    assert page.locator("#table").get_attribute("data-seq") == seq  # nothing was sent
    hand = page.locator(".hand .cards").bounding_box()
    said = note.bounding_box()
    assert hand["y"] - (said["y"] + said["height"]) < 60  # right above the cards
    # The server refuses it too, if a page sends it all the same: its answer goes to the same place.
    page.locator("#table .hand-note").evaluate("(note) => { note.textContent = ''; }")
    page.locator(".hand button.card").first.evaluate("(card) => card.removeAttribute('aria-disabled')")
    page.locator(".hand button.card").first.click()
    expect(note).to_have_text("The bidding comes first: choose one of the buttons.")
    expect(page.locator("#table-message")).to_be_hidden()
    expect(page.locator("#prompt")).to_be_hidden()  # the note is said over it
    # The note goes with the next change: the prompt shows again, saying what to do now.
    page.locator(".choices button").first.click()
    expect(page.locator("#table")).not_to_have_attribute("data-seq", seq)
    expect(note).to_be_hidden()
    expect(page.locator("#prompt")).to_be_visible()


def test_chat_out_of_sight_counts_unread_lines(player):
    anna = player({"width": 390, "height": 640})  # a phone with its browser's bars: the chat is further down
    url = anna.open_table(seats=3, target="1")
    bo = player()
    bo.sit_at(url, host=anna)
    anna.add_computers(1)
    anna.start()
    page = anna.page
    page.evaluate("window.scrollTo(0, 0)")
    assert page.locator("#chat-form").bounding_box()["y"] > 640  # out of sight
    mark = page.locator(".chat-unread")
    expect(mark).to_be_hidden()
    bo.page.fill("#chat-text", "hello from Bo")
    bo.page.keyboard.press("Enter")
    expect(page.locator("#chat-log")).to_contain_text("hello from Bo")
    expect(mark).to_be_visible()  # the chat is below the table on a phone
    expect(mark).to_have_text("Unread messages: 1")
    mark.click()  # a link to the chat
    expect(mark).to_be_hidden()
