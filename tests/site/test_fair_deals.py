"""Fair deals on the site: every deal is dealt from a seed committed to before it and the seated
players' contributions, its seed is revealed only once it is over, and its export verifies."""

from __future__ import annotations

import copy
import io
import json
import random

import pytest
from django.test import Client
from django.urls import reverse

from games import services
from games.bots import decide
from games.engine import GAMES
from games.engine.__main__ import main as engine_main
from games.engine.fair import commitment
from games.engine.records import replay
from games.history import verdicts
from games.models import Deal, GameSession, Seat, SeedDraw
from games.stored import deal_state
from tests.site_helpers import logged_in, started_table, table_page, table_with

pytestmark = pytest.mark.django_db
ON_SITE = {name: rules for name, rules in GAMES.items() if rules.on_site}
MOVES = 3000  # far more than any two deals of any game take


def deals_played(session: GameSession, host, until: int) -> None:
    """Play on, the host as the easy computer would, until deal ``until`` is over or the session is."""
    for _ in range(MOVES):
        services.computers_play_all(session_id=session.pk)
        session.refresh_from_db()
        deal = session.deals.order_by("-number").first()
        if session.status != GameSession.Status.PLAYING or (deal.number > until):
            return
        state = deal_state(deal)
        seat = Seat.objects.get(session=session, user=host).position
        assert state.to_act == seat, "only computers and the host sit at this table"
        action = decide("easy", state.view(seat), random.Random(session.seq))
        services.action_take(session_id=session.pk, user=host, action=action, seen_seq=session.seq)
    raise AssertionError("the deals never ended")


def exported_deal(deal: Deal) -> dict:
    response = Client().get(reverse("deal_export", args=[deal.pk]))
    assert response.status_code == 200
    return response.json()


def cli_verify(monkeypatch, capsys, exported) -> tuple[int, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(exported)))
    code = engine_main(["verify"])
    return code, capsys.readouterr().out


@pytest.mark.parametrize("game", sorted(ON_SITE))
def test_every_game_deals_from_the_seed_it_committed_to_and_its_export_verifies(make_user, monkeypatch, capsys, game):
    rules = ON_SITE[game]
    host = make_user("host")
    seats = min(rules.seat_counts)
    session = table_with(host, game, {}, seats, computers=range(1, seats))
    session.refresh_from_db()
    promised = session.next_commitment
    html, _ = table_page(session, host)
    assert promised[:12] in html  # on show before a card is dealt

    logged_in(host).post(reverse("session_start", args=[session.pk]), {"contribution": "c0ffee"})
    session.refresh_from_db()
    first = session.deals.get(number=1)
    assert first.fair["commitment"] == promised
    assert first.fair["contributions"] == ["c0ffee"] + [""] * (seats - 1)  # computers add nothing
    assert first.fair["first"] is True
    running = session.deals.get(finished__isnull=True)
    assert Client().get(reverse("deal_export", args=[running.pk])).status_code == 404  # not while it is in play

    deals_played(session, host, until=2)
    first.refresh_from_db()
    exported = exported_deal(first)
    assert exported["fair"]["seed"] == first.fair["seed"]
    assert commitment(bytes.fromhex(exported["fair"]["seed"]), exported["fair"]["identity"]) == promised
    [verdict] = verdicts(exported)
    assert verdict.verified, verdict.problems
    code, out = cli_verify(monkeypatch, capsys, exported)
    assert (code, out.strip()) == (0, f"table {session.pk} deal 1: verified")

    session.refresh_from_db()
    whole = Client().get(reverse("session_export", args=[session.pk])).json()
    later = [record for record in whole if not record["fair"].get("first")]
    if not later:  # the seed is truly random: only a made smudge ends a session with its first deal
        first_result = replay(whole[0])["result"]
        assert (first_result.get("contract"), first_result.get("made")) == ("smudge", True), "no second deal"
    assert all(verdict.verified for verdict in verdicts(whole)), [v.problems for v in verdicts(whole)]


@pytest.fixture
def finished_deal(players):
    """A Femkort deal over, dealt fair, for three people playing at random."""
    session = started_table(players, target=2)
    rng = random.Random(4)
    while not session.deals.filter(finished__isnull=False).exists():
        state = deal_state(session.deals.order_by("-number").first())
        user = Seat.objects.get(session=session, position=state.to_act).user
        services.action_take(
            session_id=session.pk, user=user, action=rng.choice(state.legal_actions()), seen_seq=session.seq
        )
        session.refresh_from_db()
    return session.deals.get(number=1)


def test_a_tampered_export_says_exactly_what_differs(finished_deal, monkeypatch, capsys):
    exported = exported_deal(finished_deal)
    assert verdicts(exported)[0].verified

    seed = copy.deepcopy(exported)
    seed["fair"]["seed"] = ("0" if seed["fair"]["seed"][0] != "0" else "1") + seed["fair"]["seed"][1:]
    [verdict] = verdicts(seed)
    assert not verdict.verified
    assert any(problem.startswith("the commitment") for problem in verdict.problems)

    hands = copy.deepcopy(exported)
    hand = hands["hands"][0]
    hand[0], hands["hands"][1][0] = hands["hands"][1][0], hand[0]  # two cards swapped between seats
    [verdict] = verdicts(hands)
    assert not verdict.verified
    assert any("hands" in problem for problem in verdict.problems)
    assert not any(problem.startswith("the commitment") for problem in verdict.problems)
    code, out = cli_verify(monkeypatch, capsys, hands)
    assert code == 1
    assert "NOT verified" in out
    assert "hands" in out

    contribution = copy.deepcopy(exported)
    contribution["fair"]["contributions"][1] = "ff"
    assert not verdicts(contribution)[0].verified  # the contributions are part of the shuffle

    code, out = cli_verify(monkeypatch, capsys, {"game": "femkort", "hands": []})
    assert code == 2
    assert "cannot verify" in out


def test_the_verify_page_checks_a_deal_of_the_site_and_a_pasted_export(finished_deal):
    client = Client()
    page = client.get(reverse("deal_verify") + f"?deal={finished_deal.pk}").content.decode()
    assert "verified" in page.lower()
    assert "NOT" not in page
    exported = exported_deal(finished_deal)
    exported["fair"]["seed"] = "00" * 32
    tampered = client.post(reverse("deal_verify"), {"export": json.dumps(exported)}).content.decode()
    assert "the commitment" in tampered
    bad = client.post(reverse("deal_verify"), {"export": "{not json"})
    assert bad.status_code == 400
    replay = client.get(reverse("deal_replay", args=[finished_deal.pk])).content.decode()
    assert finished_deal.fair["seed"] in replay
    assert "Verify this deal" in replay


def test_a_deal_dealt_before_verification_says_so(players):
    session = table_with(players[0], "femkort", {"target": 1}, 3, people=[(players[1], 1), (players[2], 2)])
    session = services.session_start(session_id=session.pk, user=players[0], rng=random.Random(7))
    rng = random.Random(8)
    while not session.deals.filter(finished__isnull=False).exists():
        state = deal_state(session.deals.order_by("-number").first())
        user = Seat.objects.get(session=session, position=state.to_act).user
        action = rng.choice(state.legal_actions())
        services.action_take(session_id=session.pk, user=user, action=action, seen_seq=session.seq, rng=rng)
        session.refresh_from_db()
    deal = session.deals.get(number=1)
    assert deal.fair == {}
    client = Client()
    replay = client.get(reverse("deal_replay", args=[deal.pk])).content.decode()
    assert "dealt before deals could be verified" in replay
    page = client.get(reverse("deal_verify") + f"?deal={deal.pk}").content.decode()
    assert "cannot be verified" in page.lower() or "before deals could be verified" in page


def test_contributions_go_in_seat_order_and_only_from_seated_players(players, make_user):
    host, second, third = players
    session = table_with(host, "femkort", {"target": 2}, 4, people=[(second, 2), (third, 1)], computers=[3])
    session.refresh_from_db()
    promise = session.next_commitment
    assert services.contribution_add(session_id=session.pk, user=second, commitment=promise, value="22")
    assert services.contribution_add(session_id=session.pk, user=third, commitment=promise, value="11")
    assert services.contribution_add(session_id=session.pk, user=third, commitment=promise, value="1a")  # replaces
    with pytest.raises(services.TableError):
        services.contribution_add(session_id=session.pk, user=third, commitment=promise, value="not hex")
    with pytest.raises(services.TableError):
        services.contribution_add(session_id=session.pk, user=third, commitment=promise, value="a" * 65)
    stranger = make_user("stranger")
    with pytest.raises(services.NotSeated):
        services.contribution_add(session_id=session.pk, user=stranger, commitment=promise, value="33")
    assert not services.contribution_add(session_id=session.pk, user=third, commitment="0" * 64, value="44")
    assert SeedDraw.objects.get(session=session).contributions == {str(second.pk): "22", str(third.pk): "1a"}

    services.session_start(session_id=session.pk, user=host, contribution="00")
    session.refresh_from_db()
    deal = session.deals.get(number=1)
    by_seat = {seat.position: seat.user_id for seat in session.seats.all()}
    expected = {host.pk: "00", second.pk: "22", third.pk: "1a"}
    assert deal.fair["contributions"] == [expected.get(by_seat[position], "") for position in range(4)]
    assert not services.contribution_add(session_id=session.pk, user=second, commitment=promise, value="55")
    assert services.contribution_add(
        session_id=session.pk, user=second, commitment=session.next_commitment, value="55"
    )  # for the next deal


def test_the_contribution_form_refuses_plainly_and_changes_nothing(players):
    session = started_table(players, target=2)
    before = SeedDraw.objects.get(session=session).contributions
    client = logged_in(players[1])
    url = reverse("fair_contribute", args=[session.pk])
    response = client.post(url, {"commitment": session.next_commitment, "value": "xyz"}, HTTP_HX_REQUEST="true")
    assert "hexadecimal" in response.content.decode()
    assert SeedDraw.objects.get(session=session).contributions == before
    client.post(url, {"commitment": session.next_commitment, "value": "abc"}, HTTP_HX_REQUEST="true")
    assert SeedDraw.objects.get(session=session).contributions == {str(players[1].pk): "abc"}
    assert Client().post(url, {"commitment": session.next_commitment, "value": "abc"}).status_code == 302  # log in


def test_no_seed_of_a_deal_in_play_reaches_a_page_or_an_endpoint(players):
    session = started_table(players, target=2)
    deal = session.deals.get()
    pending = SeedDraw.objects.get(session=session)
    secrets_now = {deal.fair["seed"], pending.seed}
    pages = [table_page(session, user)[0] for user in players]
    pages.append(logged_in(players[0]).get(reverse("table", args=[session.pk])).content.decode())
    pages.append(Client().get(reverse("table", args=[session.pk])).content.decode())
    pages.append(json.dumps(Client().get(reverse("session_export", args=[session.pk])).json()))
    pages.append(Client().get(reverse("deal_verify") + f"?deal={deal.pk}").content.decode())
    assert Client().get(reverse("deal_replay", args=[deal.pk])).status_code == 404
    for page in pages:
        for secret in secrets_now:
            assert secret not in page
    assert deal.fair["commitment"][:12] in pages[0]
    assert pending.commitment[:12] in pages[0]
