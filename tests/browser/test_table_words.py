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
    me.against_computers(game="letzter-stich", seats=3, clock="60")
    me.wait_for_turn()
    with translation.override("ru"):
        unit = pgettext("seconds left on the turn clock", "%(seconds)s s") % {"seconds": ""}
    assert unit.strip() not in ("", "s")
    clock = me.page.locator(".seat.to-act .clock")
    expect(clock).to_have_text(re.compile(rf"^\d+{re.escape(unit)}$"))  # in Russian as the header says "60 s per move"
