"""Login throttling (django-axes): a username is locked from one address after repeated wrong passwords."""

import pytest
from axes.models import AccessAttempt
from django.conf import settings
from django.core.management import call_command
from django.urls import reverse

pytestmark = pytest.mark.django_db
PASSWORD = "a-long-test-password-42"
LOCKED = "Too many failed login attempts"


def log_in(client, username: str, password: str, **headers: str):
    return client.post(reverse("login"), {"username": username, "password": password}, **headers)


def fail_until_locked(client, username: str = "anna", **headers: str) -> None:
    for _ in range(settings.AXES_FAILURE_LIMIT):
        response = log_in(client, username, "wrong", **headers)
    assert response.status_code == 429


def test_the_limit_is_five_wrong_passwords_then_fifteen_minutes():
    assert settings.AXES_FAILURE_LIMIT == 5
    assert settings.AXES_COOLOFF_TIME.total_seconds() == 15 * 60
    assert settings.AXES_LOCKOUT_PARAMETERS == [["username", "ip_address"]]


def test_wrong_passwords_below_the_limit_still_let_the_right_one_in(client, make_user):
    make_user("anna")
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert log_in(client, "anna", "wrong").status_code == 200
    assert log_in(client, "anna", PASSWORD).status_code == 302


def test_after_the_limit_even_the_right_password_is_refused_with_a_clear_message(client, make_user):
    make_user("anna")
    fail_until_locked(client)
    response = log_in(client, "anna", PASSWORD)
    assert response.status_code == 429
    assert LOCKED in response.text
    assert "Try again in 15 minutes" in response.text
    assert 'name="username"' in response.text  # it is the login page, with the form
    assert "_auth_user_id" not in client.session


def test_a_success_resets_the_count(client, make_user):
    make_user("anna")
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        log_in(client, "anna", "wrong")
    assert log_in(client, "anna", PASSWORD).status_code == 302
    client.post(reverse("logout"))
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        log_in(client, "anna", "wrong")
    assert log_in(client, "anna", PASSWORD).status_code == 302


def test_another_username_from_the_same_address_is_not_locked(client, make_user):
    make_user("anna")
    make_user("bjorn")
    fail_until_locked(client)
    assert log_in(client, "bjorn", PASSWORD).status_code == 302


def test_the_same_username_from_another_address_is_not_locked(client, make_user):
    make_user("anna")
    fail_until_locked(client, REMOTE_ADDR="203.0.113.5")
    assert log_in(client, "anna", PASSWORD, REMOTE_ADDR="198.51.100.7").status_code == 302


def test_the_admin_login_is_throttled_too(client, make_user):
    make_user("anna", is_staff=True)
    for _ in range(settings.AXES_FAILURE_LIMIT):
        client.post(reverse("admin:login"), {"username": "anna", "password": "wrong"})
    response = client.post(reverse("admin:login"), {"username": "anna", "password": PASSWORD})
    assert response.status_code == 429
    assert LOCKED in response.text


def test_an_admin_unlocks_by_deleting_the_access_attempt(client, admin_client, make_user):
    make_user("anna")
    fail_until_locked(client)
    changelist = admin_client.get(reverse("admin:axes_accessattempt_changelist"))
    assert changelist.status_code == 200
    assert "anna" in changelist.text
    attempt = AccessAttempt.objects.get(username="anna")
    response = admin_client.post(
        reverse("admin:axes_accessattempt_changelist"),
        {"action": "delete_selected", "_selected_action": [attempt.pk], "post": "yes"},
    )
    assert response.status_code == 302
    assert not AccessAttempt.objects.filter(username="anna").exists()
    assert log_in(client, "anna", PASSWORD).status_code == 302


def test_axes_reset_unlocks_everyone(client, make_user):
    make_user("anna")
    fail_until_locked(client)
    call_command("axes_reset")
    assert log_in(client, "anna", PASSWORD).status_code == 302


class TestBehindAProxy:
    """DJANGO_PROXY_COUNT=1: the client is the right-most X-Forwarded-For entry, which the proxy appends."""

    @pytest.fixture(autouse=True)
    def one_proxy(self, settings):
        settings.PROXY_COUNT = 1

    def test_clients_behind_the_proxy_are_told_apart(self, client, make_user):
        make_user("anna")
        fail_until_locked(client, REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR="203.0.113.5")
        response = log_in(client, "anna", PASSWORD, REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR="198.51.100.7")
        assert response.status_code == 302
        assert AccessAttempt.objects.get().ip_address == "203.0.113.5"

    def test_a_client_cannot_escape_by_sending_its_own_forwarded_for(self, client, make_user):
        make_user("anna")
        fail_until_locked(client, REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR="203.0.113.5")
        spoofed = "198.51.100.7, 203.0.113.5"  # what the proxy forwards when the client sent "198.51.100.7"
        assert log_in(client, "anna", PASSWORD, REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR=spoofed).status_code == 429


def test_without_a_proxy_forwarded_for_is_ignored(client, make_user):
    make_user("anna")
    fail_until_locked(client, HTTP_X_FORWARDED_FOR="203.0.113.5")
    assert log_in(client, "anna", PASSWORD, HTTP_X_FORWARDED_FOR="198.51.100.7").status_code == 429
