"""What a chat line may keep: no invisible characters, no lone surrogates (PostgreSQL cannot store
them), and nothing that shows as an empty line; emoji sequences and the joiners scripts need stay."""

import asyncio
import json

import pytest

from games import services
from games.models import ChatMessage
from tests.live_helpers import connect, drain, frame_where
from tests.site_helpers import started_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(players):
    return started_table(players)


def posted(table, user, text: str) -> str:
    return services.chat_post(session_id=table.pk, user=user, text=text).text


@pytest.mark.parametrize(
    "invisible",
    [
        "\u200f",  # right-to-left mark
        "\u200e",  # left-to-right mark
        "\u061c",  # Arabic letter mark
        "\u200b",  # zero-width space
        "\u2060",  # word joiner
        "\ufeff",  # byte order mark
        "\u00ad",  # soft hyphen
        "\u180e",  # Mongolian vowel separator
        "\u2066",  # left-to-right isolate
        "\U000e0041",  # tag letter A
        "\U000e007f",  # cancel tag
        "\ue000",  # private use
        "\U000f0000",  # private use, plane 15
        "\u0378",  # unassigned
        "\u200d",  # a joiner between Latin letters joins nothing
        "\u200c",
    ],
)
def test_invisible_characters_are_dropped(table, players, invisible):
    assert posted(table, players[0], f"Al{invisible}ice wins") == "Alice wins"


def test_a_lone_surrogate_is_dropped_so_the_line_can_be_stored(table, players):
    assert posted(table, players[0], "good \ud800luck\udfff") == "good luck"
    assert ChatMessage.objects.get().text == "good luck"


@pytest.mark.parametrize("text", ["\ud800", "\u200b\u200f\u2060", "\u3164", "\u2800 \u0301", "\ufe0f"])
def test_a_line_with_nothing_to_see_is_refused_as_empty(table, players, text):
    with pytest.raises(services.TableError) as refused:
        services.chat_post(session_id=table.pk, user=players[0], text=text)
    assert refused.value.code == "chat_empty"
    assert not ChatMessage.objects.exists()


@pytest.mark.parametrize(
    "text",
    [
        "\U0001f468\u200d\U0001f469\u200d\U0001f467",  # family: three emoji joined
        "\U0001f469\U0001f3fd\u200d\U0001f4bb",  # woman technologist, skin tone
        "\u2764\ufe0f\u200d\U0001f525",  # heart on fire (variation selector before the joiner)
        "\U0001f3f4\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f",  # flag of England: tags
        "\u0915\u094d\u200d\u0937",  # Devanagari: joiner after a virama
        "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645",  # Persian: non-joiner between letters
        "\U0001fae8",  # shaking face, newer than Python 3.11's Unicode data
        "Åsa säger: ¡olé! 👍🏽",
    ],
)
def test_emoji_and_the_joiners_scripts_need_are_kept(table, players, text):
    assert posted(table, players[0], text) == text


@pytest.mark.django_db(transaction=True)
def test_a_websocket_frame_with_a_lone_surrogate_is_cleaned_or_refused_not_an_error(players):
    session = started_table(players)
    # json.dumps writes "\ud800" as the escape a browser would send; json.loads gives back the lone surrogate.
    frames = [json.dumps({"action": "chat", "text": text}) for text in ["\ud800", "hi\ud800 there"]]
    assert "\\ud800" in frames[0]

    async def scenario():
        anna = await connect(session.pk, players[0])
        await drain(anna)
        await anna.send_to(text_data=frames[0])
        await frame_where(anna, lambda frame: "Write something first." in frame)
        await anna.send_to(text_data=frames[1])
        line = await frame_where(anna, lambda frame: "chat-log" in frame)
        await anna.disconnect()
        return line

    line = asyncio.run(scenario())
    assert "hi there" in line
    assert list(ChatMessage.objects.values_list("text", flat=True)) == ["hi there"]
