"""A number with its noun is said in the plural form each language gives that number: "1 round",
"2 rounds" in English, and the three forms of Russian and Ukrainian; nobody "took only 0 tricks"."""

from dataclasses import replace

import pytest
from django.utils import translation

from games.engine import EUCHRE, GAMES
from games.engine.tricks.deal import Trick
from games.selectors import game_list, say
from tests.engine.test_euchre import start


def described(game: str, options: dict, language: str = "en") -> list[str]:
    rules = GAMES[game]
    with translation.override(language):
        return [say(text) for text in rules.describe(rules.parse_options(options))]


@pytest.mark.parametrize(
    ("game", "options", "expected"),
    [
        ("nap", {"rounds": 1}, ["1 round"]),
        ("nap", {"rounds": 3}, ["3 rounds"]),
        ("letzter_stich", {"tokens": 1}, ["1 token each"]),
        ("letzter_stich", {"tokens": 5}, ["5 tokens each"]),
        ("femkort", {"target": 1, "pot": True, "stack": 1}, ["first to 1 win", "pot play, 1 chip each"]),
        ("femkort", {"target": 3, "pot": True, "stack": 10}, ["first to 3 wins", "pot play, 10 chips each"]),
        ("euchre", {"points": 5}, ["first partnership to 5 points"]),
    ],
)
def test_a_tables_options_in_short_say_one_as_one(game, options, expected):
    said = described(game, options)
    for words in expected:
        assert words in said


@pytest.mark.parametrize("language", ["ru", "uk"])
@pytest.mark.parametrize(("game", "option"), [("nap", "rounds"), ("letzter_stich", "tokens")])
def test_russian_and_ukrainian_have_a_form_for_one_for_a_few_and_for_many(language, game, option):
    said = {count: described(game, {option: count}, language)[0] for count in (1, 2, 5)}
    forms = {count: words.replace(str(count), "#") for count, words in said.items()}
    assert len({forms[1], forms[2], forms[5]}) == 3, said
    assert all(words.startswith(str(count)) for count, words in said.items()), said  # "1 круг", not "кругов: 1"


def test_a_game_for_one_number_of_players_says_that_number():
    with translation.override("en"):
        players = {entry.name: entry.players for entry in game_list()}
    assert players["euchre"] == "4 players"
    assert players["femkort"] == "3 to 10 players"


def test_makers_who_took_no_trick_took_none_not_only_zero():
    tricks = tuple(Trick(leader=0, cards=(), winner=1) for _ in range(5))
    euchred = replace(start(), contract=(0, "H", False, None), tricks=tricks, trick=None)
    with translation.override("en"):
        said = say(EUCHRE.deal_result(euchred), ["Anna", "Bo", "Cleo", "Dag"], number=3)
    assert said.startswith("Euchred: the makers took no trick. Bo and Dag score 2 points")
    assert "only 0" not in said
    one = replace(euchred, tricks=(replace(tricks[0], winner=0), *tricks[1:]))
    with translation.override("en"):
        assert "took only 1 trick." in say(EUCHRE.deal_result(one), ["Anna", "Bo", "Cleo", "Dag"], number=3)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("rate", "language", "expected"),
    [
        ((1, 1), "en", "at most 1 message in 1 second."),
        ((5, 10), "en", "at most 5 messages in 10 seconds."),
        ((1, 1), "ru", "не больше 1 сообщения за 1 секунду."),
        ((5, 10), "ru", "не больше 5 сообщений за 10 секунд."),
        ((2, 3), "uk", "не більше 2 повідомлень за 3 секунди."),
    ],
)
def test_the_chats_speed_limit_is_said_with_each_numbers_own_form(players, settings, rate, language, expected):
    from games import services
    from tests.site_helpers import started_table

    settings.FEMKORT_CHAT_RATE = rate
    table = started_table(players)
    for _ in range(rate[0]):
        services.chat_post(session_id=table.pk, user=players[0], text="hello")
    with translation.override(language), pytest.raises(services.TableError) as refused:
        services.chat_post(session_id=table.pk, user=players[0], text="hello")
    assert expected in refused.value.message
