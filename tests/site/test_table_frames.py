"""Frames of changed regions, in every game: a page several changes behind that swaps them in shows
exactly the table a fresh page shows, and no frame holds a card its viewer may not see."""

from __future__ import annotations

import random
import re

import pytest
from django.utils import translation
from django.utils.html import escape

from games import services
from games.engine import GAMES
from games.models import GameSession
from games.selectors import table_snapshot, table_view
from games.stored import deal_state, seat_choices
from games.table_html import table_frame, table_html
from tests.live_helpers import DATA_CARD, swapped_in, timeless
from tests.site_helpers import started_table

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("game", list(GAMES))
@pytest.mark.parametrize("language", ["en", "ru"])
def test_a_page_behind_by_several_changes_gets_only_what_changed_and_shows_the_table(make_user, game, language):
    rules = GAMES[game]
    users = [make_user(f"p{n}") for n in range(min(seat_choices(rules)))]
    session = started_table(users, game=game, options={})
    rng = random.Random(7)
    shown: dict[int, tuple[str, dict]] = {}
    partial = 0
    for round_ in range(12):
        snapshot = table_snapshot(session.pk)
        if snapshot.session.status != GameSession.Status.PLAYING:
            break
        public = set(DATA_CARD.findall(table_html(table_view(snapshot, None))))  # what a spectator sees
        hands = [set(snapshot.state.view(seat).hand) for seat in range(len(users))]
        for seat, user in enumerate(users):
            with translation.override(language):
                table = table_view(snapshot, user)
                whole = table_html(table)
                page, regions = shown.get(seat, (None, None))
                frame, regions = table_frame(table, regions)
            hidden = set().union(*(hand for other, hand in enumerate(hands) if other != seat)) - public - hands[seat]
            assert not set(DATA_CARD.findall(frame)) & hidden, (game, seat, snapshot.seq)
            if '<div id="table"' not in frame:
                partial += 1
                page = swapped_in(page, frame)
                assert timeless(page) == timeless(whole), (game, seat, snapshot.seq)
            else:
                page = frame
            shown[seat] = (page, regions)
        for _ in range(1 + round_ % 4):  # one to four changes between two frames
            state = deal_state(session.deals.order_by("-number").first())
            if state.is_over or session.status != GameSession.Status.PLAYING:
                break
            legal = state.legal_actions()
            action = rules.rule_of_thumb(state) if rules.has_rule_of_thumb and rng.random() < 0.5 else rng.choice(legal)
            session = services.action_take(
                session_id=session.pk, user=users[state.to_act], action=action, seen_seq=session.seq
            )
    assert partial >= len(users) * 4, f"{game}: only {partial} frames of regions"


NOTE = re.compile(r'(<p\b[^>]*\bclass="hand-note"[^>]*>)(.*?)(</p>)', re.S)
PROMPT = re.compile(r'<p id="prompt"[^>]*>(.*?)</p>', re.S)


def _note_written(page: str, text: str) -> str:
    """What table.js does with a refusal: the note next to the hand says it, over the prompt."""
    page, found = NOTE.subn(lambda match: match.group(1) + text + match.group(3), page, count=1)
    assert found, "the page has no note next to the hand"
    return page


@pytest.mark.parametrize("game", list(GAMES))
def test_a_refusal_note_goes_with_the_next_change_and_the_prompt_says_what_to_do_now(make_user, game):
    """Tapping a card that may not be played now (or the server refusing it) writes why into the
    note over the prompt; the next frame empties the note, so the prompt shows again, saying what
    to do now (not the refusal of a card that left the hand long ago)."""
    rules = GAMES[game]
    users = [make_user(f"p{n}") for n in range(min(seat_choices(rules)))]
    session = started_table(users, game=game, options={})
    rng = random.Random(3)
    for _ in range(400):  # to a turn where the hand holds a card that may not be played now
        state = deal_state(session.deals.order_by("-number").first())
        legal = state.legal_actions()
        hand = state.view(state.to_act).hand
        refused = [card for card in hand if card not in legal]
        if refused and any(card in hand for card in legal):
            break
        session = services.action_take(
            session_id=session.pk, user=users[state.to_act], action=rng.choice(legal), seen_seq=session.seq
        )
    else:
        pytest.fail(f"{game}: never a card that may not be played")
    user = users[state.to_act]
    table = table_view(table_snapshot(session.pk), user)
    page, regions = table_frame(table, None)
    assert table.refusal, game
    assert f'data-refusal="{escape(table.refusal)}"' in page  # what the page says for a card that may not be played
    with pytest.raises(services.TableError) as refusal:
        services.action_take(session_id=session.pk, user=user, action=refused[0], seen_seq=session.seq)
    page = _note_written(page, refusal.value.message)
    card = next(card for card in legal if card in hand)
    session = services.action_take(session_id=session.pk, user=user, action=card, seen_seq=session.seq)
    table = table_view(table_snapshot(session.pk), user)
    frame, regions = table_frame(table, regions)
    assert '<div id="table"' not in frame, "a frame of regions"
    page = swapped_in(page, frame)
    assert NOTE.search(page).group(2) == "", f"{game}: the refusal stays on show"
    assert PROMPT.search(page).group(1) == table.prompt != "", game
    assert timeless(page) == timeless(table_html(table)), game
