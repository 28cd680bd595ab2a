"""Every game and table option (docs/rules/) from the lobby, and what the table makes public."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse

from games import services
from games.engine import GAMES
from games.engine.records import replay
from games.models import GameSession, Seat, Standing
from games.selectors import table_snapshot, table_view
from games.stored import deal_state
from games.table_html import table_html
from tests.site_helpers import play_session, started_table

pytestmark = pytest.mark.django_db
ON_SITE = {name: rules for name, rules in GAMES.items() if rules.on_site}  # the lobby's games


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_lobby_asks_for_the_game_first_then_shows_its_own_options(players):
    client = logged_in(players[0])
    first = client.get(reverse("lobby")).content.decode()
    for rules in ON_SITE.values():
        assert f'href="?game={rules.name}"' in first
        assert f'href="/rules/{rules.name}/"' in first
    assert "Wins needed" in first
    assert "Tokens each" not in first
    letzter = client.get(reverse("lobby") + "?game=letzter_stich").content.decode()
    assert "Tokens each" in letzter
    assert "Wins needed" not in letzter
    assert 'name="game" value="letzter_stich"' in letzter
    assert re.search(r'name="seats"[^>]*max="4"', letzter)


def test_a_letzter_stich_table_opens_from_the_lobby(players):
    response = logged_in(players[0]).post(
        reverse("table_create"), {"game": "letzter_stich", "seats": 3, "tokens": 4, "turn_seconds": 0}
    )
    session = GameSession.objects.get()
    assert response["Location"] == reverse("table", args=[session.pk])
    assert (session.game, session.options, session.seat_count) == ("letzter_stich", {"tokens": 4}, 3)


def test_femkort_options_reach_the_table(players):
    logged_in(players[0]).post(
        reverse("table_create"),
        {"seats": 5, "target": 4, "profile": "classic", "trump": "on", "pot": "on", "stack": 7},
    )
    session = GameSession.objects.get()
    assert session.options | {"redeal": False} == {
        "profile": "classic",
        "trump": True,
        "pot": True,
        "stack": 7,
        "target": 4,
        "redeal": False,
    }


@pytest.mark.parametrize(
    ("form", "error"),
    [
        ({"game": "letzter_stich", "seats": 5}, "less than or equal to 4"),
        ({"game": "letzter_stich", "seats": 3, "tokens": 0}, "greater than or equal to 1"),
        ({"seats": 4, "profile": "sideways"}, "Select a valid choice"),
        ({"seats": 4, "target": "many"}, "Enter a whole number"),
        ({"game": "whist", "seats": 4}, "Unknown game"),
    ],
)
def test_bad_options_get_a_form_error_and_create_nothing(players, form, error):
    response = logged_in(players[0]).post(reverse("table_create"), form)
    assert response.status_code == 400
    assert error in response.content.decode()
    assert not GameSession.objects.exists()


def test_the_trump_card_lies_face_up_for_everyone_and_trump_is_named(players):
    session = started_table(players, options={"trump": True})
    state = deal_state(session.deals.get())
    upcard = state.dealt[state.dealer][-1]
    suit = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}[upcard[1]]
    snapshot = table_snapshot(session.pk)
    for viewer in [*players, None]:
        page = table_html(table_view(snapshot, viewer))
        dealer_seat = page.split(f'data-seat="{state.dealer}"')[1].split("</li>")[0]
        assert f'data-card="{upcard}"' in dealer_seat
        assert f"Trump: {suit}" in page
    to_act = table_view(snapshot, players[state.to_act])
    assert f"Trump: {suit}." in to_act.prompt


def test_no_card_is_face_up_without_trump(players):
    session = started_table(players)
    state = deal_state(session.deals.get())
    page = table_html(table_view(table_snapshot(session.pk), None))
    assert "Turned up" not in page
    assert "Trump:" not in page
    assert not set(re.findall(r'data-card="(..)"', page)) & {c for hand in state.dealt for c in hand}


def test_pot_play_shows_the_pot_and_every_stack(players):
    session = started_table(players, options={"pot": True, "stack": 6})
    page = table_html(table_view(table_snapshot(session.pk), players[0]))
    assert "pot: 3" in page
    assert page.count(">5 chips<") == 3  # each ante is in the pot, not also in front of its player


def test_letzter_stich_shows_tokens_the_pot_and_tricks_taken(players):
    session = started_table(players, game="letzter_stich", options={"tokens": 5})
    state = deal_state(session.deals.get())
    for _ in range(3):  # one whole trick
        user = Seat.objects.get(session=session, position=state.to_act).user
        session = services.action_take(
            session_id=session.pk, user=user, action=state.legal_cards()[0], seen_seq=session.seq
        )
        state = deal_state(session.deals.get())
    page = table_html(table_view(table_snapshot(session.pk), None))
    assert page.count(">5 tokens<") == 3
    assert "pot: 0" in page
    taker = state.tricks[0].winner
    taker_seat = page.split(f'data-seat="{taker}"')[1].split("</li>")[0]
    assert "1 trick taken" in taker_seat
    assert page.count("0 tricks taken") == 2


def test_letzter_stich_ratings_follow_tokens(players):
    session = play_session(players, game="letzter_stich", options={"tokens": 2}, seed=4)
    seats = list(session.seats.order_by("position"))
    tokens = session.match["tokens"]
    most = max(seats, key=lambda seat: tokens[seat.position])
    fewest = min(seats, key=lambda seat: tokens[seat.position])
    assert tokens[most.position] > tokens[fewest.position]
    rating = {s.user_id: s.rating for s in Standing.objects.filter(game="letzter_stich")}
    assert rating[most.user_id] > rating[fewest.user_id]
    assert not Standing.objects.filter(deals_won__gt=0).exists()  # taking the last trick here is losing it


def test_pot_play_ratings_follow_chips(players):
    session = play_session(players, options={"pot": True, "stack": 2, "target": 5}, seed=2)
    seats = list(session.seats.order_by("position"))
    winner = next(seat for seat in seats if seat.pk == session.winner_id)
    assert session.match["chips"][winner.position] == max(session.match["chips"])
    rating = {s.user_id: s.rating for s in Standing.objects.all()}
    assert all(rating[winner.user_id] > rating[seat.user_id] for seat in seats if seat.pk != winner.pk)


@pytest.mark.parametrize("game", list(ON_SITE))
def test_each_game_has_a_rules_page_with_its_options(client, game):
    page = client.get(reverse("rules", args=[game])).content.decode()
    assert ON_SITE[game].title in page
    for option in ON_SITE[game].options_schema:
        assert option.label in page
    assert "An example" in page


def test_an_unknown_game_has_no_rules_page(client):
    assert client.get("/rules/whist/").status_code == 404


def test_letzter_stich_exports_carry_tokens_and_pot_before_each_deal_and_round_trip(players, client):
    session = play_session(players, game="letzter_stich", options={"tokens": 2}, seed=5)
    exported = client.get(reverse("session_export", args=[session.pk])).json()
    assert len(exported) == session.deals.count() > 1
    assert (exported[0]["tokens"], exported[0]["pot"]) == ([2, 2, 2], 0)
    results = [replay(record) for record in exported]
    for result, following in zip(results, exported[1:], strict=False):
        assert (following["tokens"], following["pot"]) == (result["tokens"], result["pot"])
    assert results[-1]["tokens"] == session.match["tokens"]
    assert client.get(reverse("deal_export", args=[session.deals.last().pk])).json() == exported[-1]
    page = client.get(reverse("session", args=[session.pk])).content.decode()
    last_row = page.split("<tr>")[-1]
    for seat in session.seats.select_related("user"):
        tokens = session.match["tokens"][seat.position]
        assert f"{seat.name} {tokens} token{'' if tokens == 1 else 's'}" in last_row
    assert f"pot {session.match['pot']}" in last_row


def test_pot_play_session_page_shows_chips_after_each_deal(players, client):
    session = play_session(players, options={"pot": True, "stack": 2, "target": 5}, seed=2)
    page = client.get(reverse("session", args=[session.pk])).content.decode()
    last_row = page.split("<tr>")[-1]
    for seat in session.seats.select_related("user"):
        chips = session.match["chips"][seat.position]
        assert f"{chips} chip{'' if chips == 1 else 's'}" in last_row.split(seat.name, 1)[1]


def test_letzter_stich_says_what_a_deal_cost_and_who_shares_the_win(players, client):
    session = play_session(players, game="letzter_stich", options={"tokens": 2}, seed=5)
    tokens = session.match["tokens"]
    page = client.get(reverse("session", args=[session.pk])).content.decode()
    leaders = [seat.name for seat in session.seats.order_by("position") if tokens[seat.position] == max(tokens)]
    if len(leaders) > 1:
        assert f"{' and '.join([', '.join(leaders[:-1]), leaders[-1]])} share the win" in page
    else:
        assert f"{leaders[0]} wins the session" in page
    deal = session.deals.order_by("number").first()
    replay_page = client.get(reverse("deal_replay", args=[deal.pk])).content.decode()
    assert "pays a token into the pot" in replay_page or "took every trick" in replay_page
    assert "won deal" not in replay_page


def test_an_option_that_needs_another_says_which(players):
    page = logged_in(players[0]).get(reverse("lobby")).content.decode()
    assert re.search(r'name="stack"[^>]*data-needs="pot"|data-needs="pot"[^>]*name="stack"', page)


def test_a_taken_trick_stays_on_show_with_who_took_it(players, settings):
    session = started_table(players)
    state = deal_state(session.deals.get())
    for _ in range(3):
        user = Seat.objects.get(session=session, position=state.to_act).user
        session = services.action_take(
            session_id=session.pk, user=user, action=state.legal_cards()[0], seen_seq=session.seq
        )
        state = deal_state(session.deals.get())
    view = table_view(table_snapshot(session.pk), None)
    taker = state.tricks[0].winner
    assert view.trick.note == f"{Seat.objects.get(session=session, position=taker).name} takes the trick."
    assert [c.card for c in view.trick.cards] == list(state.tricks[0].cards)
    assert sum(c.won for c in view.trick.cards) == 1
    user = Seat.objects.get(session=session, position=state.to_act).user
    session = services.action_take(
        session_id=session.pk, user=user, action=state.legal_cards()[0], seen_seq=session.seq
    )
    assert table_view(table_snapshot(session.pk), None).trick.note == ""  # the next lead replaces it


def test_a_computer_leading_waits_for_the_trick_pause(players, settings):
    settings.FEMKORT_TRICK_PAUSE_SECONDS = 1.2
    session = started_table(players[:2], computers=1)
    for _ in range(40):
        state = deal_state(session.deals.order_by("-number").first())
        seat = Seat.objects.get(session=session, position=state.to_act)
        if seat.computer and not state.trick.cards:
            session.refresh_from_db()
            assert session.due >= session.turn_since + timedelta(seconds=1.2)
            return
        if seat.computer:
            services.computer_turn(session_id=session.pk)
        else:
            session.refresh_from_db()
            services.action_take(
                session_id=session.pk, user=seat.user, action=state.legal_cards()[0], seen_seq=session.seq
            )
        session.refresh_from_db()
    pytest.fail("the computer never led")


def test_lobby_rows_say_the_rules_in_short_and_who_sits_there(players, client):
    session = services.table_create(host=players[0], seats=4, game="letzter_stich", options={"tokens": 3})
    services.seat_take(session_id=session.pk, user=players[1])
    page = client.get(reverse("lobby")).content.decode()
    row = page.split(f'href="/tables/{session.pk}/"')[1].split("</li>")[0]
    assert "3 tokens each" in row
    names = [f'<a href="/players/{person.username}/">{person.name}</a>' for person in players[:2]]
    assert ", ".join(names) in row  # each name links to the player's profile
    assert "2/4 seats" in row


def test_a_game_for_four_players_only_asks_for_no_seat_count(players):
    page = logged_in(players[0]).get(reverse("lobby") + "?game=euchre").content.decode()
    assert re.search(r'<input type="hidden" name="seats" value="4"', page)
    assert not re.search(r'<input type="number" name="seats"', page)
    assert "4 seats: this game is always played by 4." in page
    assert "4 to 4 players" not in page
    assert "4 players." in page  # Euchre in the list of games
    assert "3 to 10 players." in page  # Femkort
    created = logged_in(players[0]).post(reverse("table_create"), {"game": "euchre", "seats": 4, "turn_seconds": 0})
    assert created.status_code == 302


SHORTER = [("auction_forty_five", "120", ("45", "60")), ("forty_five", "45", ("25",))]


@pytest.mark.parametrize(("game", "default", "shorter"), SHORTER)
def test_the_forty_fives_offer_a_shorter_session_with_the_rules_target_chosen(players, client, game, default, shorter):
    lobby = logged_in(players[0]).get(reverse("lobby") + f"?game={game}").content.decode()
    field = lobby.split('name="points"')[1].split("</select>")[0]
    assert re.search(rf'<option value="{default}" selected>{default}</option>', field)
    for points in shorter:
        assert f'<option value="{points}">{points}</option>' in field
    rules = client.get(reverse("rules", args=[game])).content.decode()
    assert "<dt>Points to win</dt>" in rules
    assert f"Default: {default}." in rules


def test_a_forty_five_session_to_25_opens_from_the_lobby_and_ends_there(players):
    logged_in(players[0]).post(
        reverse("table_create"), {"game": "forty_five", "seats": 2, "points": "25", "turn_seconds": 0}
    )
    assert GameSession.objects.get().options == {"points": 25}
    assert "first to 25 points" in Client().get(reverse("lobby")).content.decode()  # the waiting table's row
    session = play_session(players[:1], computers=1, game="forty_five", options={"points": "25"}, seed=3)
    assert session.status == GameSession.Status.FINISHED
    points = session.match["points"]
    assert 25 <= max(points) < 35  # one deal scores 10 at most: the session stopped at 25, not 45


SET_OUT = [
    ("pitch", "End when a player is set back to minus 7", "the player then leading alone wins"),
    ("smudge", "End when a player is set back to minus 7", "the player then leading alone wins"),
    ("auction_forty_five", "End when a side is set back to minus the target", "the side then leading wins"),
]


@pytest.mark.parametrize(("game", "label", "leader_wins"), SET_OUT)
def test_ending_at_minus_the_target_is_an_option_offered_unchecked_and_listed_on_the_rules_page(
    players, client, game, label, leader_wins
):
    lobby = logged_in(players[0]).get(reverse("lobby") + f"?game={game}").content.decode()
    (box,) = re.findall(r'<input type="checkbox" name="set_out"[^>]*>', lobby)
    assert "checked" not in box
    assert label in lobby
    rules = client.get(reverse("rules", args=[game])).content.decode()
    listed = rules.split(f"<dt>{label}</dt>")[1].split("</dd>")[0]
    assert "Not in the rules" in listed
    assert leader_wins in listed
    assert "Default: off." in listed


@pytest.mark.parametrize(("game", "seats"), [("pitch", 3), ("auction_forty_five", 4)])
def test_a_table_that_chose_to_end_at_minus_the_target_keeps_it_and_says_so_in_the_lobby(players, game, seats):
    form = {"game": game, "seats": seats, "turn_seconds": 0}
    logged_in(players[0]).post(reverse("table_create"), form)
    logged_in(players[1]).post(reverse("table_create"), form | {"set_out": "on"})
    plain, chosen = GameSession.objects.order_by("pk")
    assert plain.options.get("set_out") is False
    assert chosen.options["set_out"] is True
    rows = Client().get(reverse("lobby") + f"?game={game}").content.decode()
    assert rows.count("ends when ") == 1  # the table that chose it, not the other
