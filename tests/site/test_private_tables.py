"""A private table is reached by its code, its link (which carries the code) or an invitation; its
pages, exports, replays and reviews are for its players, invitees and staff; codes cannot be walked."""

from __future__ import annotations

import threading

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db import connection, connections
from django.test import Client
from django.urls import reverse

from games import services
from games.access import session_by_code
from games.models import Deal, GameSession, Seat
from tests.site_helpers import logged_in, play_session

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_english")]


@pytest.fixture
def private(players):
    return services.table_create(host=players[0], seats=4, game="femkort", options={}, unlisted=True)


def table_urls(session: GameSession) -> dict[str, str]:
    """Every address of a waiting table that answers with the table or acts on it."""
    pk = session.pk
    return {
        "page": reverse("table", args=[pk]),
        "poll": reverse("table", args=[pk]) + "?seq=0",
        "join": reverse("seat_take", args=[pk]),
        "leave": reverse("seat_leave", args=[pk]),
        "chat": reverse("chat_post", args=[pk]),
        "start": reverse("session_start", args=[pk]),
        "invite": reverse("invite", args=[pk]),
        "leave-session": reverse("session_leave", args=[pk]),
    }


def test_a_private_table_answers_404_by_its_id_alone_to_strangers_and_visitors(private, make_user):
    stranger = logged_in(make_user("dora"))
    for client in (stranger, Client()):
        for name, url in table_urls(private).items():
            get = client.get(url)
            assert get.status_code in (404, 405, 302), (name, get.status_code)
            assert private.code not in get.content.decode()
        join = stranger.post(reverse("seat_take", args=[private.pk]), {"position": 1})
        assert join.status_code == 404
        assert private.code not in join.content.decode()
    assert not Seat.objects.filter(session=private, user__username="dora").exists()


def test_the_link_carries_the_code_and_lets_its_holder_see_and_sit(private, players, make_user):
    host_page = logged_in(players[0]).get(reverse("table", args=[private.pk])).content.decode()
    link = reverse("table", args=[private.pk]) + f"?code={private.code}"
    assert link in host_page  # the address to share is the one with the code
    dora = logged_in(make_user("dora"))
    assert dora.get(reverse("table", args=[private.pk]) + "?code=WRONG2").status_code == 404
    assert dora.get(link).status_code == 200
    assert dora.get(reverse("table", args=[private.pk])).status_code == 200  # this browser showed the code
    assert dora.post(reverse("seat_take", args=[private.pk]), {"position": 1}).status_code == 302
    assert Seat.objects.get(session=private, position=1).user.username == "dora"


def test_the_code_typed_in_the_lobby_admits_this_browser(private, make_user):
    visitor = logged_in(make_user("dora"))
    found = visitor.get(reverse("table_by_code"), {"code": f" {private.code.lower()} "})
    assert found["Location"] == reverse("table", args=[private.pk])
    assert visitor.get(found["Location"]).status_code == 200
    assert Client().get(found["Location"]).status_code == 404  # another browser did not


def test_an_invitee_sees_the_table_without_the_code_and_sits_as_invited(private, players):
    services.invite(session_id=private.pk, user=players[0], username="bjorn")
    bjorn = logged_in(players[1])
    assert bjorn.get(reverse("table", args=[private.pk])).status_code == 200
    assert logged_in(players[2]).get(reverse("table", args=[private.pk])).status_code == 404


def test_code_tries_are_limited_per_address_and_per_account(private, make_user, settings):
    settings.FEMKORT_CODE_TRIES = (3, 600)
    guesser = logged_in(make_user("dora"))
    for guess in ("AAAAAA", "BBBBBB", "CCCCCC"):
        said = guesser.get(reverse("table_by_code"), {"code": guess}, follow=True).content.decode()
        assert "No table has that code" in said
    refused = guesser.get(reverse("table_by_code"), {"code": private.code}, follow=True)
    assert "Too many table codes tried" in refused.content.decode()  # even the right one: nothing is learnt
    assert guesser.get(reverse("table", args=[private.pk])).status_code == 404
    by_link = guesser.get(reverse("table", args=[private.pk]) + f"?code={private.code}")
    assert by_link.status_code == 429
    # The same account from another address is still over its own limit; a fresh visitor elsewhere is not.
    elsewhere = guesser.get(reverse("table_by_code"), {"code": private.code}, REMOTE_ADDR="198.51.100.7")
    assert elsewhere["Location"] == reverse("lobby")
    fresh = Client(REMOTE_ADDR="198.51.100.8").get(reverse("table_by_code"), {"code": private.code})
    assert fresh["Location"] == reverse("table", args=[private.pk])


def test_a_finished_private_session_and_its_deals_are_for_its_players_invitees_and_staff(players, make_user):
    anna, bjorn, _ = players
    session = play_session([anna, bjorn], computers=1, game="femkort", options={"target": 1}, seed=3)
    GameSession.objects.filter(pk=session.pk).update(unlisted=True, code="PRIV23")
    deal = Deal.objects.filter(session=session).order_by("number").first()
    pages = [
        reverse("session", args=[session.pk]),
        reverse("session_export", args=[session.pk]),
        reverse("deal_replay", args=[deal.pk]),
        reverse("deal_export", args=[deal.pk]),
        reverse("deal_review", args=[deal.pk]),
        reverse("deal_verify") + f"?deal={deal.pk}",
        reverse("table", args=[session.pk]),
    ]
    staff = make_user("sam", is_staff=True)
    for allowed in (anna, bjorn, staff):
        client = logged_in(allowed)
        assert [client.get(url).status_code for url in pages] == [200] * len(pages), allowed
    for refused in (Client(), logged_in(make_user("dora"))):
        assert [refused.get(url).status_code for url in pages] == [404] * len(pages)


def test_profiles_show_a_private_session_as_played_without_a_link_or_its_company(players, make_user):
    anna, bjorn, _ = players
    session = play_session([anna, bjorn], computers=1, game="femkort", options={"target": 1}, seed=3)
    GameSession.objects.filter(pk=session.pk).update(unlisted=True, code="PRIV23")
    link = f'href="{reverse("session", args=[session.pk])}"'
    stranger = logged_in(make_user("dora")).get(reverse("player", args=["anna"])).content.decode()
    assert "A private session of Femkort" in stranger
    assert link not in stranger
    assert reverse("player", args=["bjorn"]) not in stranger  # not who she met there either
    own = logged_in(anna).get(reverse("player", args=["anna"])).content.decode()
    assert link in own
    assert reverse("player", args=["bjorn"]) in own


@pytest.mark.skipif(connection.vendor != "postgresql", reason="concurrent writers: PostgreSQL's row locks")
@pytest.mark.django_db(transaction=True)
def test_code_tries_made_at_the_same_moment_are_counted_one_at_a_time(make_user, settings):
    """Twelve tries at once from one address (as from several server processes): exactly three are
    answered, because the address's row is locked while it is counted."""
    settings.FEMKORT_CODE_TRIES = (3, 600)
    start = threading.Barrier(12)
    outcomes = []

    def guess(number: int) -> None:
        start.wait()
        try:
            session_by_code(code=f"GUESS{number}", user=AnonymousUser(), client="203.0.113.9")
        except services.TableError as refused:
            outcomes.append(refused.code)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=guess, args=(number,)) for number in range(12)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["code_rate"] * 9 + ["no_code"] * 3
