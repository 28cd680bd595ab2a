"""A session in the browser, as the Fair play page promises it: the next deal's commitment on show
before it is dealt, the finished deal verified (and a tampered export refused), and its review."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

COMMIT = re.compile(r"[0-9a-f]{12}")


@pytest.mark.parametrize(("game", "seats", "options"), [("femkort", 3, {"target": "1"}), ("euchre", 4, {})])
def test_commitment_before_each_deal_then_verify_and_review(player, reviews_computed, game, seats, options):
    me = player()
    me.open_table(game=game, seats=seats, **options)
    page = me.page
    before = page.locator(".fair-line code").last.inner_text()
    assert COMMIT.fullmatch(before)  # the first deal's, before any card is dealt
    me.add_computers(seats - 1, level="easy")
    me.start()
    shown = {before}
    finished = page.locator(".result")
    while not finished.count():
        shown.update(code.inner_text() for code in page.locator(".fair-line code").all())
        if page.locator("#table[data-my-turn]").count() and me.playable().count():
            me.play_a_card()
        page.wait_for_selector("#table[data-my-turn], .result")
    page.locator(".result a").first.click()
    page.wait_for_load_state()
    page.locator("a[href*='/replay/']").first.click()
    page.wait_for_load_state()
    commitment = page.locator(".fair-record dd code").first.text_content()
    assert commitment[:12] == before  # the first deal was dealt from the seed committed to before it
    assert all(COMMIT.fullmatch(code) for code in shown)

    page.locator(".fair-verify a").click()
    expect(page.locator(".verdicts li.verified")).to_have_count(1)
    exported = json.loads(page.locator("#verify-export").input_value())
    assert re.fullmatch(r"[0-9a-f]{32}", exported["fair"]["contributions"][0])  # this browser's own randomness
    assert exported["fair"]["contributions"][1:] == [""] * (seats - 1)  # computers add none
    exported["fair"]["contributions"][0] = "ff" + exported["fair"]["contributions"][0]
    page.fill("#verify-export", json.dumps(exported))
    page.locator(".verify-form button[type=submit]").click()
    expect(page.locator(".verdicts li.differs")).to_have_count(1)
    expect(page.locator(".verdicts li.differs code").first).to_be_visible()

    page.go_back()
    page.go_back()
    page.locator("a[href*='/review/']").first.click()
    expect(page.locator(".review .message")).to_contain_text("being computed")
    reviews_computed(int(re.search(r"/sessions/(\d+)/", page.locator("h1 a").first.get_attribute("href")).group(1)))
    page.wait_for_selector(".review-decisions", timeout=60_000)  # the page looks again and swaps the review in
    said = int(re.search(r"\d+", page.locator(".review > p").nth(1).inner_text()).group())
    expect(page.locator(".decision.mistake, .decision.inaccuracy")).to_have_count(said)
    assert page.locator(".review-decisions > li").count() >= 1
