"""The site through HTTP: lobby, tables, a whole session by three players, and no hidden card leaks."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Deal, GameSession, Play
from games.stored import deal_state
from tests.live_helpers import hidden_from

pytestmark = pytest.mark.django_db
DATA_CARD = re.compile(r'data-card="([2-9TJQKA][SHDC])"')


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_lobby_lists_waiting_tables_and_the_form(client, players):
    host = logged_in(players[0])
    response = host.post(reverse("table_create"), {"seats": 4, "target": 3, "profile": "modern"})
    session = GameSession.objects.get()
    assert response.url == reverse("table", args=[session.pk])
    page = client.get(reverse("lobby")).text
    assert f"#{session.pk}" in page
    assert "1/4 seats" in page
    assert "anna" in page


def test_new_table_form_errors(players):
    response = logged_in(players[0]).post(reverse("table_create"), {"seats": 12, "target": 3, "profile": "modern"})
    assert response.status_code == 400
    assert "errorlist" in response.text
    assert GameSession.objects.count() == 0


def test_anonymous_visitor_must_log_in_to_act(client, players):
    response = client.post(reverse("table_create"), {"seats": 4})
    assert response.status_code == 302
    assert reverse("login") in response.url


def unplayed_cards_of_others(session: GameSession, seat: int | None) -> set[str]:
    deal = session.deals.order_by("-number").first()
    if deal is None:
        return set()
    return hidden_from(deal_state(deal), seat)


def assert_no_leak(response, session, seat):
    shown = set(DATA_CARD.findall(response.text))
    hidden = unplayed_cards_of_others(session, seat)
    assert not shown & hidden, f"seat {seat} was shown hidden cards {shown & hidden}"


@pytest.mark.parametrize(
    "table",
    [
        # First to two: each deal is checked from every seat, a third win would add deals, not cases.
        pytest.param({"target": 2, "profile": "modern"}, id="femkort"),
        pytest.param({"target": 2, "trump": "on", "pot": "on", "stack": 3}, id="femkort-trump-pot"),
        pytest.param({"game": "letzter_stich", "tokens": 2}, id="letzter_stich"),
    ],
)
def test_three_players_play_a_whole_session_over_http(players, table):
    clients = [logged_in(user) for user in players]
    clients[0].post(reverse("table_create"), {"seats": 3, **table})
    session = GameSession.objects.get()
    table = reverse("table", args=[session.pk])
    clients[1].post(reverse("seat_take", args=[session.pk]), {"position": 1})
    clients[2].post(reverse("seat_take", args=[session.pk]), {"position": 2}, HTTP_HX_REQUEST="true")
    clients[0].post(reverse("session_start", args=[session.pk]))
    session.refresh_from_db()
    assert session.status == GameSession.Status.PLAYING
    spectator = Client()
    moves = 0
    while session.status == GameSession.Status.PLAYING:
        deal = session.deals.order_by("-number").first()
        state = deal_state(deal)
        seat = state.to_act
        for viewer, client in enumerate(clients):
            page = client.get(table)
            assert_no_leak(page, session, viewer)
            if viewer == seat:
                buttons = re.findall(r'<button type="submit" name="move" value="(..)"([^>]*)>', page.text)
                legal = {card for card, rest in buttons if 'aria-disabled="true"' not in rest}
                assert legal == set(state.legal_cards()), "enabled buttons are exactly the legal cards"
        assert_no_leak(spectator.get(table), session, None)
        card = state.legal_cards()[moves % len(state.legal_cards())]
        response = clients[seat].post(
            reverse("action_take", args=[session.pk]), {"card": card, "seq": session.seq}, HTTP_HX_REQUEST="true"
        )
        assert response.status_code == 200
        assert 'role="alert"' not in response.text
        assert_no_leak(response, session, seat)
        moves += 1
        session.refresh_from_db()
    assert session.status == GameSession.Status.FINISHED
    assert Play.objects.filter(deal__session=session).count() == moves
    dealt = [deal_state(deal, []) for deal in Deal.objects.filter(session=session)]
    assert moves == sum(state.tricks_per_deal * len(state.seats) for state in dealt)
    final = clients[1].get(table).text
    assert "wins the session" in final or "share the win" in final or "ended in a draw" in final


def test_stale_and_illegal_posts_show_a_message_and_change_nothing(players):
    clients = [logged_in(user) for user in players]
    clients[0].post(reverse("table_create"), {"seats": 3, "target": 3, "profile": "modern"})
    session = GameSession.objects.get()
    for i in (1, 2):
        clients[i].post(reverse("seat_take", args=[session.pk]), {})
    clients[0].post(reverse("session_start", args=[session.pk]))
    session.refresh_from_db()
    state = deal_state(session.deals.get())
    seat = state.to_act
    play = reverse("action_take", args=[session.pk])
    stale = clients[seat].post(play, {"card": state.hand(seat)[0], "seq": session.seq - 1}, HTTP_HX_REQUEST="true")
    assert "moved on" in stale.text
    other = (seat + 1) % 3
    wrong_turn = clients[other].post(play, {"card": state.hand(other)[0], "seq": session.seq}, HTTP_HX_REQUEST="true")
    assert "not your turn" in wrong_turn.text
    forged = clients[seat].post(play, {"card": "ZZ", "seq": "x"}, HTTP_HX_REQUEST="true")
    assert forged.status_code == 400
    not_mine = next(c for c in ["AS", "KH", "2C", "7D", "9S"] if c not in state.hand(seat))
    missing = clients[seat].post(play, {"card": not_mine, "seq": session.seq}, HTTP_HX_REQUEST="true")
    assert "not in your hand" in missing.text
    plain = clients[seat].post(play, {"card": not_mine, "seq": session.seq})
    assert plain.status_code == 302
    assert Play.objects.count() == 0
    session.refresh_from_db()
    assert session.seq == GameSession.objects.get().seq


def test_polling_gets_no_content_until_something_changes(players):
    client = logged_in(players[0])
    client.post(reverse("table_create"), {"seats": 3, "target": 3, "profile": "modern"})
    session = GameSession.objects.get()
    table = reverse("table", args=[session.pk])
    assert client.get(table, {"seq": session.seq}, HTTP_HX_REQUEST="true").status_code == 204
    logged_in(players[1]).post(reverse("seat_take", args=[session.pk]), {})
    fresh = client.get(table, {"seq": session.seq}, HTTP_HX_REQUEST="true")
    assert fresh.status_code == 200
    assert "bjorn" in fresh.text


def test_your_hand_says_what_you_must_do(players):
    clients = [logged_in(user) for user in players]
    clients[0].post(reverse("table_create"), {"seats": 3, "target": 3, "profile": "modern"})
    session = GameSession.objects.get()
    for i in (1, 2):
        clients[i].post(reverse("seat_take", args=[session.pk]), {})
    clients[0].post(reverse("session_start", args=[session.pk]))
    state = deal_state(GameSession.objects.get().deals.get())
    page = clients[state.to_act].get(reverse("table", args=[session.pk])).text
    assert "Your lead: play any card." in page
    assert "<title>Your turn" in page
    # A hand card's name starts with its visible label, then says it in full.
    assert re.search(
        r'aria-label="(10|[2-9JQKA])[♠♥♦♣], (Two|Three|Four|Five|Six|Seven|Eight|Nine|Ten|Jack|Queen|King|Ace) of', page
    )


def test_host_chooses_the_computer_level(players):
    host = logged_in(players[0])
    host.post(reverse("table_create"), {"seats": 3, "target": 3, "profile": "modern"})
    session = GameSession.objects.get()
    host.post(reverse("computer_add", args=[session.pk]), {"position": 1, "level": "strong"})
    host.post(reverse("computer_add", args=[session.pk]), {"position": 2})
    assert host.post(reverse("computer_add", args=[session.pk]), {"level": "genius"}).status_code == 302
    levels = dict(session.seats.values_list("position", "computer"))
    assert levels == {0: "", 1: "strong", 2: "medium"}
    page = host.get(reverse("table", args=[session.pk])).text
    assert "(computer, strong)" in page
    assert "(computer, medium)" in page


def test_between_deals_the_last_trick_stays_on_show(players):
    from tests.site_helpers import play_session

    session = play_session(players, seed=21)
    first = session.deals.order_by("number").first()
    last_trick = deal_state(first).tricks[-1]
    # Rewind to the moment after deal 1: deal 2 exists but has no plays yet.
    later = session.deals.filter(number__gt=2)
    Play.objects.filter(deal__in=later).delete()
    later.delete()
    Play.objects.filter(deal__number=2, deal__session=session).delete()
    Deal.objects.filter(session=session, number=2).update(winner=None, finished=None)
    GameSession.objects.filter(pk=session.pk).update(status="playing", winner=None)
    page = logged_in(players[0]).get(reverse("table", args=[session.pk])).text
    assert "won deal 1" in page
    section = page.split('aria-label="Last trick of that deal"')[1].split("</section>")[0]
    # Marked as the previous deal's cards: the same cards may be in this deal's hidden hands.
    assert re.findall(r'data-previous-deal-card="(..)"', section) == list(last_trick.cards)
    assert not DATA_CARD.findall(section)


def test_pages_answer_head_requests_for_health_checks(client, players):
    session = logged_in(players[0]).post(reverse("table_create"), {"seats": 4, "target": 3, "profile": "modern"})
    table = GameSession.objects.get()
    for url in (reverse("lobby"), reverse("leaderboard"), reverse("table", args=[table.pk])):
        assert client.head(url).status_code == 200, url
    assert session.status_code == 302
