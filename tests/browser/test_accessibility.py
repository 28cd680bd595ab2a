"""Every page and every state of the table, in every language: axe-core finds no serious or
critical violation, and a table is played in the browser's own language."""

from __future__ import annotations

import re

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.conf import settings
from django.utils import translation
from playwright.sync_api import expect

from .conftest import DESKTOP
from .pages import play_together

LOCALES = {"en": "en-GB", "sv": "sv-SE", "ru": "ru-RU", "uk": "uk-UA", "es": "es-ES", "it": "it-IT"}
AXE = Axe()


def serious(page) -> list[str]:
    """axe-core's serious and critical violations on the page as it is now."""
    response = AXE.run(page).response
    return [
        f"{violation['id']} ({violation['impact']}): {node['target']} {node['html'][:120]}"
        f" {node['failureSummary'][:200]}"
        for violation in response["violations"]
        if violation["impact"] in ("serious", "critical")
        for node in violation["nodes"][:3]
    ]


@pytest.mark.parametrize("language", [code for code, _ in settings.LANGUAGES])
def test_no_serious_violations_on_any_page_or_table_state(player, browser, site, reviews_computed, language):
    me = player(locale=LOCALES[language])
    page = me.page
    found: dict[str, list[str]] = {}

    def check(name: str) -> None:
        assert page.locator("html").get_attribute("lang") == language, name
        found[name] = serious(page)

    paths = ("/", "/?game=letzter_stich", "/?game=euchre", "/leaderboard/", "/fair-play/")
    for path in (*paths, "/rules/femkort/", "/rules/letzter_stich/", "/rules/nap/", "/rules/euchre/"):
        page.goto(path)
        check(path)
    page.goto(f"/players/{me.name}/")
    check("player page")
    page.goto("/accounts/profile/")
    check("settings")

    me.open_table(seats=3, target="2")
    check("waiting table")
    me.add_computers(2)
    me.start()
    me.wait_for_turn()
    check("your turn")
    if language in WHOLE_SESSION:
        _through_the_session_to_its_review(me, check, reviews_computed)

    me.open_table(game="nap", seats=3)
    me.add_computers(2)
    me.start()
    page.wait_for_selector(".choices button, #table[data-my-turn]")
    check("Nap: bidding or playing")

    visitor = browser.new_context(viewport=DESKTOP, base_url=site, locale=LOCALES[language]).new_page()
    for path in ("/accounts/login/", "/accounts/signup/", "/accounts/password_reset/"):
        visitor.goto(path)
        assert visitor.locator("html").get_attribute("lang") == language
        found[path] = serious(visitor)
    visitor.context.close()

    problems = {name: problems for name, problems in found.items() if problems}
    assert not problems, "\n".join(f"{name}: {problem}" for name, each in problems.items() for problem in each)


# Every state of a whole session, then the session page, replay, verify and review: in English and in
# Swedish (the longest words). The other languages check the pages and the table up to their turn: the
# markup is the same in every language, and tests/site/test_translations.py renders every state in each.
WHOLE_SESSION = ("en", "sv")


def _through_the_session_to_its_review(me, check, reviews_computed) -> None:
    page = me.page
    between = False
    while not page.locator(".result").count():
        page.wait_for_selector("#table[data-my-turn], .result")
        if not between and page.locator(".last-deal").count() and page.locator("#table[data-my-turn]").count():
            check("between deals")
            between = True
        if page.locator("#table[data-my-turn]").count() and me.playable().count():
            me.play_a_card()
    check("finished table")
    assert between, "the deal's result was on show at a turn of the next deal"
    page.locator(".result a").first.click()
    page.wait_for_load_state()
    check("session page")
    page.locator("a[href*='/replay/']").first.click()
    page.wait_for_load_state()
    check("replay")
    page.locator("a[href*='/verify/']").first.click()
    page.wait_for_selector(".verdicts li.verified")
    check("verify page")
    page.go_back()
    page.locator("a[href*='/review/']").first.click()
    page.wait_for_load_state()
    check("review being computed")
    reviews_computed(int(re.search(r"/sessions/(\d+)/", page.locator("h1 a").first.get_attribute("href")).group(1)))
    page.wait_for_selector(".review-decisions", timeout=60_000)  # the page looks again and swaps it in
    check("review")


def test_a_russian_and_a_swedish_browser_at_one_table_each_see_their_own_language(player):
    anna = player(locale="ru-RU")
    url = anna.open_table(seats=3, target="1")
    bjorn = player(DESKTOP, locale="sv-SE")
    bjorn.sit_at(url, host=anna)
    anna.add_computers(1)
    anna.start()
    texts = {}
    for language in ("ru", "sv"):
        with translation.override(language):
            texts[language] = (translation.gettext("Leave this session…"), translation.gettext("Your hand"))
    expect(anna.page.locator(".leave a")).to_have_text(texts["ru"][0])
    expect(bjorn.page.locator(".leave a")).to_have_text(texts["sv"][0])

    def in_their_own_language() -> None:
        """Every pushed view stays in each player's own language."""
        assert anna.page.locator("html").get_attribute("lang") == "ru"
        for english in ("Waiting for", "Your turn", "Your lead"):
            assert english not in anna.page.locator("#table").inner_text()
            assert english not in bjorn.page.locator("#table").inner_text()

    play_together([anna, bjorn], check=in_their_own_language)
    assert anna.page.locator(".hand, .result").first.is_visible()
