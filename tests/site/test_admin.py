"""Admin pages load for a superuser; history is read-only; sessions can be abandoned."""

import pytest
from django.urls import reverse

from games import services
from games.models import Deal, GameSession, Play, Seat
from games.stored import deal_state

pytestmark = pytest.mark.django_db


@pytest.fixture
def session(players):
    host = players[0]
    session = services.table_create(host=host, seats=3)
    for position in (1, 2):
        services.computer_add(session_id=session.pk, user=host, position=position)
    session = services.session_start(session_id=session.pk, user=host)
    services.computers_play_all(session_id=session.pk)
    session.refresh_from_db()
    # Make sure at least one card is on record whoever leads.
    state = deal_state(session.deals.get())
    return services.action_take(session_id=session.pk, user=host, action=state.legal_cards()[0], seen_seq=session.seq)


@pytest.mark.parametrize("model", [GameSession, Seat, Deal, Play, "user"])
def test_changelist_and_change_pages_load(admin_client, session, model, django_user_model):
    model = django_user_model if model == "user" else model
    meta = model._meta
    changelist = admin_client.get(reverse(f"admin:{meta.app_label}_{meta.model_name}_changelist"))
    assert changelist.status_code == 200
    obj = model.objects.first()
    change = admin_client.get(reverse(f"admin:{meta.app_label}_{meta.model_name}_change", args=[obj.pk]))
    assert change.status_code == 200


def test_deals_and_plays_are_read_only_and_show_full_hands(admin_client, session):
    deal = Deal.objects.first()
    page = admin_client.get(reverse("admin:games_deal_change", args=[deal.pk]))
    assert deal.setup["hands"][0][0] in page.text
    assert '<input type="submit" value="Save"' not in page.text
    play = Play.objects.first()
    original = play.action
    forged = "KS" if original == "AS" else "AS"
    response = admin_client.post(reverse("admin:games_play_change", args=[play.pk]), {"action": forged})
    assert response.status_code == 403
    play.refresh_from_db()
    assert play.action == original
    assert admin_client.get(reverse("admin:games_play_add")).status_code == 403


def test_abandon_action(admin_client, session):
    admin_client.post(
        reverse("admin:games_gamesession_changelist"),
        {"action": "abandon", "_selected_action": [session.pk]},
    )
    session.refresh_from_db()
    assert session.status == GameSession.Status.ABANDONED


def test_game_state_cannot_be_edited_in_the_admin(admin_client, session):
    """A stale change form saved over a running session once rolled it back to "waiting"."""
    before = GameSession.objects.get(pk=session.pk)
    page = admin_client.get(reverse("admin:games_gamesession_change", args=[session.pk])).text
    assert 'name="status"' not in page
    assert 'name="seats-0-user"' not in page
    response = admin_client.post(
        reverse("admin:games_gamesession_change", args=[session.pk]),
        {"game": "femkort", "status": "waiting", "seat_count": 3, "host": session.host_id, "seq": 0, "match": "{}"},
    )
    assert response.status_code == 403
    seat = Seat.objects.get(session=session, position=1)
    response = admin_client.post(
        reverse("admin:games_seat_change", args=[seat.pk]),
        {"session": session.pk, "position": 1, "user": "", "computer": "", "stand_in": "", "invited": ""},
    )
    assert response.status_code == 403
    after = GameSession.objects.get(pk=session.pk)
    assert (after.status, after.seq, after.match) == (before.status, before.seq, before.match)
    assert Seat.objects.get(pk=seat.pk).computer == seat.computer
    host = admin_client.get(reverse("admin:games_gamesession_changelist")).text
    assert 'value="abandon"' in host


def test_staff_who_may_only_view_sessions_cannot_abandon_them(client, session, django_user_model):
    from django.contrib.auth.models import Permission

    viewer = django_user_model.objects.create_user(username="viewer", password="a-long-test-password-42", is_staff=True)
    viewer.user_permissions.add(Permission.objects.get(codename="view_gamesession"))
    client.force_login(viewer)
    response = client.post(
        reverse("admin:games_gamesession_changelist"), {"action": "abandon", "_selected_action": [session.pk]}
    )
    assert response.status_code in (200, 302)
    session.refresh_from_db()
    assert session.status == GameSession.Status.PLAYING
