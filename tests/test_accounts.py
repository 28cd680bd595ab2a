"""Sign up, log in and out, password change and reset, the profile page."""

import re

import pytest
from django.core import mail
from django.urls import reverse

from accounts.models import User

pytestmark = pytest.mark.django_db
PASSWORD = "a-long-test-password-42"


def test_signup_logs_in_and_returns_to_next(client):
    response = client.post(
        reverse("signup"),
        {
            "username": "Anna",
            "display_name": "Anna K",
            "password1": PASSWORD,
            "password2": PASSWORD,
            "next": "/tables/1/",
        },
    )
    assert response.status_code == 302
    assert response.url == "/tables/1/"
    assert User.objects.get(username="Anna").name == "Anna K"
    assert client.get(reverse("profile")).status_code == 200


def test_usernames_are_unique_ignoring_case(client, make_user):
    make_user("anna")
    response = client.post(reverse("signup"), {"username": "ANNA", "password1": PASSWORD, "password2": PASSWORD})
    assert response.status_code == 200
    assert "That username is taken" in response.text
    assert User.objects.count() == 1


def test_signup_form_errors_are_shown(client):
    response = client.post(reverse("signup"), {"username": "bo", "password1": "x", "password2": "y"})
    assert response.status_code == 200
    assert "errorlist" in response.text


def test_signup_ignores_an_offsite_next(client):
    response = client.post(
        reverse("signup"),
        {"username": "bo", "password1": PASSWORD, "password2": PASSWORD, "next": "https://evil.example/"},
    )
    assert response.url == reverse("lobby")


def test_pages_that_need_a_user_redirect_to_login_and_back(client, make_user):
    response = client.get(reverse("profile"))
    assert response.status_code == 302
    assert response.url == f"{reverse('login')}?next={reverse('profile')}"
    make_user("anna")
    response = client.post(reverse("login"), {"username": "anna", "password": PASSWORD, "next": reverse("profile")})
    assert response.url == reverse("profile")


def test_login_error_is_clear(client, make_user):
    make_user("anna")
    response = client.post(reverse("login"), {"username": "anna", "password": "wrong"})
    assert response.status_code == 200
    assert "correct username and password" in response.text


def test_logout_is_a_post(client, make_user):
    client.force_login(make_user("anna"))
    assert client.post(reverse("logout")).status_code == 302
    assert client.get(reverse("profile")).status_code == 302


def test_password_change(client, make_user):
    user = make_user("anna")
    client.force_login(user)
    response = client.post(
        reverse("password_change"),
        {"old_password": PASSWORD, "new_password1": "another-long-pass-77", "new_password2": "another-long-pass-77"},
    )
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.check_password("another-long-pass-77")


def test_password_reset_by_email(client, make_user):
    make_user("anna", email="anna@example.com")
    client.post(reverse("password_reset"), {"email": "anna@example.com"})
    assert len(mail.outbox) == 1
    link = re.search(r"http://testserver(/accounts/reset/\S+/)", mail.outbox[0].body).group(1)
    form_page = client.get(link, follow=True)
    assert form_page.status_code == 200
    done = client.post(
        form_page.redirect_chain[-1][0], {"new_password1": "brand-new-pass-99", "new_password2": "brand-new-pass-99"}
    )
    assert done.status_code == 302
    assert User.objects.get(username="anna").check_password("brand-new-pass-99")


def test_profile_edits_display_name(client, make_user):
    user = make_user("anna")
    client.force_login(user)
    client.post(reverse("profile"), {"display_name": "Queen Anna", "email": ""})
    user.refresh_from_db()
    assert user.display_name == "Queen Anna"
