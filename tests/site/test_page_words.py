"""What the site's pages say around the games: each game's own words for a deal's winner, no
"Deals won 0" where a game does not count them, no trick links where there are no tricks, no
article to agree with a game's name, and reviews whose sentences agree with themselves."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation
from django.utils.html import escape

from games.engine import GAMES
from games.models import Deal, DealReview, GameSession
from games.selectors import game_title
from games.stored import deal_start
from tests.site_helpers import play_session

pytestmark = pytest.mark.django_db
LANGUAGES = ["en", "sv", "ru", "uk", "es", "it"]


def _page(url: str, language: str = "en", user=None) -> str:
    client = Client(headers={"accept-language": language})
    if user is not None:
        client.force_login(user)
    return client.get(url).content.decode()


def _column(page: str, heading: str) -> list[str]:
    """The cells of the deals table's column under ``heading``."""
    head = re.search(r"<thead><tr>(.*?)</tr></thead>", page, re.S).group(1)
    at = re.findall(r"<th>(.*?)</th>", head).index(heading)
    return [
        re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)[at] for row in re.findall(r"<tr><td[^>]*>.*?</tr>", page, re.S)
    ]


def test_the_session_page_names_a_deals_winner_in_the_games_own_terms(players):
    michigan = play_session(players[:1], computers=2, seed=1, game="michigan", options={})
    page = _page(reverse("session", args=[michigan.pk]))
    assert "Last trick" not in page
    went_out = _column(page, "Went out first")
    assert went_out
    assert all(cell.strip() for cell in went_out)
    femkort = play_session(players[:2], computers=1, seed=1, game="femkort", options={"target": 1})
    assert _column(_page(reverse("session", args=[femkort.pk])), "Last trick")


def test_partners_who_won_a_deal_are_named_together(players):
    session = play_session(players[:1], computers=3, seed=2, game="forty_five", options={})
    cells = _column(_page(reverse("session", args=[session.pk])), "Won the deal")
    partner = r"\w+( \(computer[^)]*\))?"  # the deals are shuffled afresh: either side may win them
    assert any(re.fullmatch(rf"{partner} and {partner}", cell.strip()) for cell in cells), cells


def test_the_session_page_explains_chips_left_on_the_boodles(players):
    """Whether chips stay depends on the deals (dealt by the fair shuffle): both cases are set here."""
    session = play_session(players[:1], computers=2, seed=1, game="michigan", options={})
    for boodles, said in (([3, 0, 2, 0], "5 chips stay on the boodles: they are not shared out"), ([0] * 4, None)):
        GameSession.objects.filter(pk=session.pk).update(match=session.match | {"boodles": boodles})
        page = _page(reverse("session", args=[session.pk]))
        if said:
            assert said in page
        else:
            assert "stay on the boodles" not in page


def test_a_game_that_does_not_count_deals_won_shows_no_zero(players):
    play_session(players[:1], computers=2, seed=1, game="michigan", options={})
    play_session(players[:1], computers=2, seed=1, game="femkort", options={"target": 1})
    page = _page(reverse("player", args=[players[0].username]))
    rows = {
        re.search(r"<td[^>]*>(.*?)</td>", row).group(1): row for row in re.findall(r"<tr><td[^>]*>.*?</tr>", page, re.S)
    }
    michigan = next(row for game, row in rows.items() if game.startswith("Michigan"))
    femkort = next(row for game, row in rows.items() if game.startswith("Femkort"))
    assert re.findall(r"<td[^>]*>(.*?)</td>", michigan, re.S)[5].endswith(">—</span>")
    assert re.fullmatch(r"\d+", re.findall(r"<td[^>]*>(.*?)</td>", femkort, re.S)[5])


def test_a_replay_without_tricks_offers_no_trick_to_jump_to(players):
    michigan = play_session(players[:1], computers=2, seed=1, game="michigan", options={})
    deal = Deal.objects.filter(session=michigan, finished__isnull=False).first()
    assert "Jump to trick" not in _page(reverse("deal_replay", args=[deal.pk]))
    femkort = play_session(players[:1], computers=2, seed=1, game="femkort", options={"target": 1})
    deal = Deal.objects.filter(session=femkort, finished__isnull=False).first()
    assert "Jump to trick" in _page(reverse("deal_replay", args=[deal.pk]))


def test_the_lobby_does_not_call_every_game_a_last_trick_game():
    assert "Last-trick" not in _page(reverse("lobby"))


def test_the_rules_say_what_the_table_does_with_cards_that_may_not_be_played():
    page = _page(reverse("rules", args=["pitch"]))
    assert "greyed" not in page
    assert "the cards you may play stand up from your hand" in page


@pytest.mark.parametrize("language", LANGUAGES)
def test_opening_a_table_of_a_game_needs_no_article_before_its_name(language, players):
    """ "Open a Auction Forty-Five table": the name goes after a colon, in every language."""
    for name, rules in GAMES.items():
        with translation.override(language):
            title = game_title(rules)
        lobby = _page(reverse("lobby") + f"?game={name}", language, players[0])
        for page in (lobby, _page(reverse("rules", args=[name]), language)):
            assert re.search(rf">[^<>]*: {re.escape(escape(title))}</(a|button)>", page), (language, name)


def _review_with(session, decision_for) -> str:
    """The review page of ``session``'s first deal with a card decision, its stored review replaced by
    one decision made by ``decision_for(played, other, seat, index)``."""
    for deal in Deal.objects.filter(session=session, finished__isnull=False).order_by("number"):
        state = deal_start(deal)
        for index, (seat, action) in enumerate(deal.plays.values_list("seat", "action")):
            legal = state.legal_actions()
            cards = [card for card in legal if card in state.view(seat).playable]
            if action in cards and len(cards) > 1:
                other = next(card for card in cards if card != action)
                DealReview.objects.update_or_create(
                    deal=deal,
                    defaults={
                        "status": DealReview.Status.DONE,
                        "decisions": [decision_for(action, other, seat, index)],
                    },
                )
                return _page(reverse("deal_review", args=[deal.pk]))
            state = state.apply(action, seat=seat)
    raise AssertionError("no card decision")


def _decision(played, strong, seat, index, *, shares, winners=None, best=None):
    decision = {"index": index, "seat": seat, "played": played, "strong": strong, "shares": shares, "mark": ""}
    if winners is not None:
        decision["open"] = {"best": [best], "winners": winners, "values": {}}
    return decision


def _text(page: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", page))


def test_review_sentences_agree_with_themselves(players):
    session = play_session(players[:2], computers=2, seed=4, game="forty_five", options={})
    # The strong player chose the same card, which was never among the best in the imagined deals.
    page = _text(
        _review_with(session, lambda played, other, seat, index: _decision(played, played, seat, index, shares={}))
    )
    assert "chooses the same (among the best in 0%" not in page
    assert "The strong player chooses the same, though it was among the best in none of the deals" in page
    # With every card visible another card is better, but the same players win the deal either way.
    page = _text(
        _review_with(
            session,
            lambda played, other, seat, index: _decision(
                played, played, seat, index, shares={played: 1.0}, best=other, winners={other: [0, 2], played: [0, 2]}
            ),
        )
    )
    names = [seat.name for seat in session.seats.order_by("position")]
    assert f"lets {names[0]}" not in page
    assert "does better for this seat than" in page
    assert f", though {names[0]} and {names[2]} win the deal either way." in page
    # Two winners: "Birger, Dag wins" no more.
    page = _text(
        _review_with(
            session,
            lambda played, other, seat, index: _decision(
                played, played, seat, index, shares={played: 1.0}, best=played, winners={played: [1, 3]}
            ),
        )
    )
    assert f"then {names[1]} and {names[3]} win the deal." in page
