"""A table's chat: stored, escaped, limited, switched off by the host, muted per user, moderated."""

import asyncio
import html
import json
import re
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games import services
from games.chat_html import chat_box
from games.models import ChatMessage, GameSession
from tests.live_helpers import DATA_CARD, connect, frame_seq, frames_until, next_message
from tests.site_helpers import started_table

pytestmark = pytest.mark.django_db


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def table(players):
    return started_table(players)


def test_a_message_is_stored_and_shown_escaped_on_the_table_page(table, players):
    services.chat_post(session_id=table.pk, user=players[1], text='<script>alert("hi")</script> & <b>bold</b>')
    page = logged_in(players[0]).get(reverse("table", args=[table.pk])).text
    assert "&lt;script&gt;alert(&quot;hi&quot;)&lt;/script&gt; &amp; &lt;b&gt;bold&lt;/b&gt;" in page
    assert "<script>alert" not in page
    assert ChatMessage.objects.get().author == players[1]


def test_spectators_who_are_signed_in_may_write_and_everyone_may_read(table, make_user):
    spectator = make_user("dora")
    services.chat_post(session_id=table.pk, user=spectator, text="Nice lead!")
    assert "Nice lead!" in Client().get(reverse("table", args=[table.pk])).text
    anonymous = Client().post(reverse("chat_post", args=[table.pk]), {"text": "hi"})
    assert anonymous.status_code == 302  # to the login page
    assert ChatMessage.objects.count() == 1


@pytest.mark.parametrize(
    ("text", "stored"),
    [
        ("x" * 300, "x" * 300),
        ("  two\nlines\r\nand\ttabs  ", "two lines and tabs"),
        ("right\u202eto left", "rightto left"),
        ("family \U0001f468\u200d\U0001f469\u200d\U0001f467", "family \U0001f468\u200d\U0001f469\u200d\U0001f467"),
    ],
)
def test_text_is_kept_as_one_line_of_at_most_300_characters(table, players, text, stored):
    assert services.chat_post(session_id=table.pk, user=players[0], text=text).text == stored


@pytest.mark.parametrize(("text", "code"), [("x" * 301, "chat_too_long"), ("   \n ", "chat_empty"), ("", "chat_empty")])
def test_too_long_or_empty_messages_are_refused_and_nothing_is_stored(table, players, text, code):
    with pytest.raises(services.TableError) as refused:
        services.chat_post(session_id=table.pk, user=players[0], text=text)
    assert refused.value.code == code
    assert refused.value.message
    assert not ChatMessage.objects.exists()


def test_five_messages_in_ten_seconds_then_a_clear_refusal_then_again_later(table, players):
    for number in range(5):
        services.chat_post(session_id=table.pk, user=players[0], text=f"message {number}")
    with pytest.raises(services.ChatTooFast) as refused:
        services.chat_post(session_id=table.pk, user=players[0], text="one too many")
    assert "too fast" in refused.value.message
    services.chat_post(session_id=table.pk, user=players[1], text="others still may")
    ChatMessage.objects.filter(author=players[0]).update(created=timezone.now() - timedelta(seconds=11))
    services.chat_post(session_id=table.pk, user=players[0], text="later")
    assert ChatMessage.objects.filter(author=players[0]).count() == 6


def test_the_host_turns_chat_off_and_nobody_else_can(table, players):
    services.chat_post(session_id=table.pk, user=players[1], text="before")
    with pytest.raises(services.TableError):
        services.chat_switch(session_id=table.pk, user=players[1], on=False)
    services.chat_switch(session_id=table.pk, user=players[0], on=False)
    with pytest.raises(services.TableError) as refused:
        services.chat_post(session_id=table.pk, user=players[1], text="after")
    assert refused.value.code == "chat_off"
    page = logged_in(players[1]).get(reverse("table", args=[table.pk])).text
    assert "The host has turned chat off at this table." in page
    assert "before" not in page
    assert 'name="text"' not in page
    services.chat_switch(session_id=table.pk, user=players[0], on=True)
    assert "before" in logged_in(players[1]).get(reverse("table", args=[table.pk])).text


def test_muting_hides_a_players_messages_for_the_muter_only(table, players):
    services.chat_post(session_id=table.pk, user=players[1], text="from bjorn")
    services.chat_post(session_id=table.pk, user=players[2], text="from cecilia")
    services.chat_mute(user=players[0], other_id=players[1].pk, mute=True)
    anna = [line.text for line in chat_box(table, players[0]).lines]
    cecilia = [line.text for line in chat_box(table, players[2]).lines]
    assert anna == ["from cecilia"]
    assert cecilia == ["from bjorn", "from cecilia"]
    assert chat_box(table, players[0]).muted == [(players[1].pk, "bjorn")]
    services.chat_mute(user=players[0], other_id=players[1].pk, mute=False)
    assert [line.text for line in chat_box(table, players[0]).lines] == ["from bjorn", "from cecilia"]
    with pytest.raises(services.TableError):
        services.chat_mute(user=players[0], other_id=players[0].pk, mute=True)


def test_the_http_fallback_answers_with_the_chat_box_and_says_why_it_refused(table, players):
    anna = logged_in(players[0])
    box = anna.post(reverse("chat_post", args=[table.pk]), {"text": "over http"}, HTTP_HX_REQUEST="true")
    assert box.status_code == 200
    assert 'id="chat"' in box.text
    assert "over http" in box.text
    refused = anna.post(reverse("chat_post", args=[table.pk]), {"text": "y" * 301}, HTTP_HX_REQUEST="true")
    note = re.search(r'<p id="chat-note" class="chat-note" role="status">([^<]*)</p>', refused.text)
    assert "at most 300 characters" in note.group(1)  # beside the box, not at the top of the page
    assert 'hx-swap-oob="true"' not in refused.text
    assert f'value="{"y" * 301}"' in refused.text  # the refused line stays in the box, to shorten and send
    plain = anna.post(reverse("chat_post", args=[table.pk]), {"text": ""})
    assert plain.status_code == 302
    assert ChatMessage.objects.count() == 1
    muted = anna.post(
        reverse("chat_mute", args=[table.pk]), {"user": players[1].pk, "mute": "1"}, HTTP_HX_REQUEST="true"
    )
    assert "bjorn (unmute)" in muted.text
    assert "Muted for you at every table: you will not see bjorn's messages anywhere" in html.unescape(muted.text)
    forged = anna.post(reverse("chat_mute", args=[table.pk]), {"user": "x", "mute": "1"}, HTTP_HX_REQUEST="true")
    assert "not understood" in forged.text


def test_admins_see_and_delete_messages(table, players, admin_client):
    message = services.chat_post(session_id=table.pk, user=players[1], text="rude words")
    listing = admin_client.get(reverse("admin:games_chatmessage_changelist") + "?q=rude")
    assert "rude words" in listing.text
    admin_client.post(reverse("admin:games_chatmessage_delete", args=[message.pk]), {"post": "yes"})
    assert not ChatMessage.objects.exists()


def chat_frame(text: str) -> str:
    return json.dumps({"action": "chat", "text": text, "HEADERS": {"HX-Request": "true"}})


async def frames_through(communicator, text: str) -> list[str]:
    """Every frame up to and including the first that holds ``text`` (waiting for it, however long)."""
    frames = []
    while not frames or text not in frames[-1]:
        frames.append(await communicator.receive_from(timeout=30))
    return frames


def chat_lines(frames: list[str]) -> list[str]:
    return [frame for frame in frames if "chat-log" in frame]


@pytest.mark.django_db(transaction=True)
def test_over_the_websocket_a_line_reaches_everyone_but_those_who_muted_its_author(players):
    session = started_table(players)
    services.chat_mute(user=players[2], other_id=players[0].pk, mute=True)

    async def scenario():
        sockets = [await connect(session.pk, user) for user in players]
        spectator = await connect(session.pk)
        for socket in [*sockets, spectator]:
            await frames_until(socket, session.seq)
        await sockets[0].send_to(text_data=chat_frame("<i>good luck</i>"))
        own = await frames_through(sockets[0], "good luck")  # stored and sent round: now bjorn answers
        # bjorn's line comes after anna's on every socket: up to it, each socket has seen all it will of anna's
        await sockets[1].send_to(text_data=chat_frame("thanks"))
        seen = [chat_lines(await frames_through(socket, "thanks")) for socket in [*sockets, spectator]]
        seen[0] = chat_lines(own) + seen[0]
        await sockets[0].send_to(text_data=chat_frame("z" * 301))
        refusal = await next_message(sockets[0])
        for socket in [*sockets, spectator]:
            await socket.disconnect()
        return seen, refusal

    seen, refusal = asyncio.run(scenario())
    anna, bjorn, cecilia, spectator = ([line for line in lines if "good luck" in line] for lines in seen)
    assert len(anna) == len(bjorn) == len(spectator) == 1
    assert cecilia == []  # she muted anna
    assert "&lt;i&gt;good luck&lt;/i&gt;" in bjorn[0]
    assert "<i>" not in bjorn[0]
    assert not DATA_CARD.findall(bjorn[0])  # a chat frame carries the line and nothing of the game
    assert frame_seq(bjorn[0]) is None
    assert "at most 300 characters" in refusal
    assert ChatMessage.objects.count() == 2


@pytest.mark.django_db(transaction=True)
def test_over_the_websocket_visitors_not_signed_in_cannot_write(players):
    session = started_table(players)

    async def scenario():
        visitor = await connect(session.pk)
        await frames_until(visitor, session.seq)
        await visitor.send_to(text_data=chat_frame("hello"))
        message = await next_message(visitor)
        await visitor.disconnect()
        return message

    assert "Log in to chat." in asyncio.run(scenario())
    assert not ChatMessage.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_when_the_host_turns_chat_off_every_socket_gets_the_closed_box(players):
    session = started_table(players)

    async def scenario():
        bjorn = await connect(session.pk, players[1])
        await frames_until(bjorn, session.seq)
        await database_sync_to_async(services.chat_switch)(session_id=session.pk, user=players[0], on=False)
        frames = await frames_through(bjorn, "The host has turned chat off at this table.")
        await bjorn.disconnect()
        return frames

    frames = asyncio.run(scenario())
    assert 'id="chat"' in frames[-1]
    assert GameSession.objects.get(pk=session.pk).chat_on is False


@pytest.mark.django_db(transaction=True)
def test_a_socket_that_opens_gets_the_lines_written_while_it_was_away(players):
    session = started_table(players)
    services.chat_post(session_id=session.pk, user=players[1], text="written before you came back")

    async def scenario():
        anna = await connect(session.pk, players[0])
        first = await anna.receive_from(timeout=30)
        await anna.disconnect()
        return first

    first = asyncio.run(scenario())
    assert frame_seq(first) == session.seq  # the table view and the chat box in one frame
    assert "written before you came back" in first


def test_a_polling_page_gets_the_lines_written_since_it_last_saw_the_chat(table, players):
    """With Redis away there is no push: chat does not move the table's number, so the poll asks."""
    reader = logged_in(players[0])
    page = reader.get(reverse("table", args=[table.pk])).text
    assert 'id="chat-seen" name="chat" value="0"' in page
    assert 'hx-include="#chat-seen"' in page
    table.refresh_from_db()
    poll = {"seq": table.seq, "chat": "0"}
    htmx = {"HTTP_HX_REQUEST": "true"}
    assert reader.get(reverse("table", args=[table.pk]), poll, **htmx).status_code == 204
    line = services.chat_post(session_id=table.pk, user=players[1], text="still there?")
    answer = reader.get(reverse("table", args=[table.pk]), poll, **htmx)
    assert answer.status_code == 200
    assert "still there?" in answer.text
    assert 'hx-swap-oob="beforeend:#chat-log"' in answer.text
    assert f'id="chat-seen" name="chat" value="{line.pk}"' in answer.text
    seen = {"seq": table.seq, "chat": str(line.pk)}
    assert reader.get(reverse("table", args=[table.pk]), seen, **htmx).status_code == 204
    services.chat_mute(user=players[0], other_id=players[1].pk, mute=True)
    services.chat_post(session_id=table.pk, user=players[1], text="muted line")
    assert reader.get(reverse("table", args=[table.pk]), seen, **htmx).status_code == 204  # muted: nothing new
    for forged in ("-1", "x", "9" * 40, "\u0661"):  # the last: an Arabic-Indic digit one
        assert (
            reader.get(reverse("table", args=[table.pk]), {"seq": table.seq, "chat": forged}, **htmx).status_code == 204
        )
