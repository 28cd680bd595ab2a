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
            "email": "anna@example.com",
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
    response = client.post(
        reverse("signup"),
        {"username": "ANNA", "email": "anna2@example.com", "password1": PASSWORD, "password2": PASSWORD},
    )
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
        {
            "username": "bo",
            "email": "bo@example.com",
            "password1": PASSWORD,
            "password2": PASSWORD,
            "next": "https://evil.example/",
        },
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


def signup(client, username: str, email: str, display_name: str = ""):
    return client.post(
        reverse("signup"),
        {
            "username": username,
            "display_name": display_name,
            "email": email,
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )


def test_signup_requires_an_email_for_password_resets(client):
    response = signup(client, "bo", "")
    assert response.status_code == 200
    assert "This field is required." in response.text
    assert not User.objects.exists()


def test_emails_are_unique_ignoring_case(client, make_user):
    make_user("anna", email="anna@example.com")
    response = signup(client, "bo", " ANNA@example.COM")
    assert "Another account already uses that email address." in response.text
    assert User.objects.count() == 1
    bo = make_user("bo", email="bo@example.com")
    client.force_login(bo)
    response = client.post(reverse("profile"), {"display_name": "", "email": "Anna@Example.com"})
    assert "Another account already uses that email address." in response.text
    bo.refresh_from_db()
    assert bo.email == "bo@example.com"


def test_display_names_are_unique_ignoring_case_and_spacing(client, make_user):
    make_user("anna", display_name="Queen Anna")
    response = signup(client, "bo", "bo@example.com", display_name="  queen   ANNA ")
    assert "Another player already goes by that name" in response.text
    assert User.objects.count() == 1
    bo = make_user("bo")
    client.force_login(bo)
    response = client.post(reverse("profile"), {"display_name": "QUEEN ANNA", "email": ""})
    assert "Another player already goes by that name" in response.text
    bo.refresh_from_db()
    assert bo.display_name == ""


@pytest.mark.parametrize(
    ("typed", "stored"),
    [
        ("  Queen   Anna ", "Queen Anna"),
        ("\uff21\uff4e\uff4e\uff41", "Anna"),  # full-width letters
        ("An\u200bna", "Anna"),  # zero-width space
        ("\u202eAnna", "Anna"),  # right-to-left override
    ],
)
def test_display_names_are_stored_normalised(client, make_user, typed, stored):
    user = make_user("anna")
    client.force_login(user)
    client.post(reverse("profile"), {"display_name": typed, "email": ""})
    user.refresh_from_db()
    assert user.display_name == stored


def test_a_name_that_normalising_makes_too_long_is_refused(client, make_user):
    user = make_user("anna")
    client.force_login(user)
    ligatures = "\ufdfa" * 3  # each becomes 18 characters under NFKC
    response = client.post(reverse("profile"), {"display_name": ligatures, "email": ""})
    assert response.status_code == 200
    assert "Ensure this value has at most 40 characters" in response.text
    user.refresh_from_db()
    assert user.display_name == ""


def test_a_lookalike_of_a_taken_name_is_refused(client, make_user):
    make_user("anna", display_name="Anna")
    client.force_login(make_user("bo"))
    response = client.post(reverse("profile"), {"display_name": "\uff21\uff4e\u200bna", "email": ""})
    assert "Another player already goes by that name" in response.text


def test_a_display_name_cannot_be_another_players_username(client, make_user):
    make_user("anna")
    client.force_login(make_user("bo"))
    response = client.post(reverse("profile"), {"display_name": "ANNA", "email": ""})
    assert "That is another player&#x27;s username." in response.text
    response = signup(client, "cleo2", "c@example.com", display_name="Anna")
    assert "That is another player&#x27;s username." in response.text


def test_keeping_your_own_name_is_fine(client, make_user):
    user = make_user("anna", display_name="Queen Anna")
    client.force_login(user)
    assert client.post(reverse("profile"), {"display_name": "queen anna", "email": ""}).status_code == 302
    assert client.post(reverse("profile"), {"display_name": "ANNA", "email": ""}).status_code == 302
    user.refresh_from_db()
    assert user.name == "ANNA"


@pytest.mark.parametrize(
    "name", ["Astrid", "astrid", " HUGO ", "Hugo (computer, strong)", "Me (Computer)", "Computer (easy)"]
)
def test_computer_names_are_reserved(client, make_user, name):
    client.force_login(make_user("anna"))
    response = client.post(reverse("profile"), {"display_name": name, "email": ""})
    assert "That name belongs to the computer players." in response.text


def test_a_new_username_cannot_be_another_players_display_name_or_a_computer_name(client, make_user):
    make_user("anna", display_name="Queen")
    response = signup(client, "QUEEN", "q@example.com")
    assert "Another player already goes by that name. Choose another username." in response.text
    response = signup(client, "astrid", "a@example.com")
    assert "That name belongs to the computer players." in response.text
    assert User.objects.count() == 1


def test_the_database_refuses_duplicates_too(make_user):
    from django.db import IntegrityError, transaction

    make_user("anna", display_name="Queen", email="anna@example.com")
    with pytest.raises(IntegrityError), transaction.atomic():
        make_user("bo", display_name="QUEEN")
    with pytest.raises(IntegrityError), transaction.atomic():
        make_user("cleo", email="ANNA@example.com")
    make_user("dag")
    make_user("elsa")  # empty display names and emails are not duplicates


def test_admin_forms_follow_the_same_rules(admin_client, make_user):
    make_user("anna", display_name="Queen", email="anna@example.com")
    bo = make_user("bo")
    page = admin_client.get(reverse("admin:accounts_user_change", args=[bo.pk]))
    data = {
        field: value
        for field, value in page.context["adminform"].form.initial.items()
        if field in {"username", "email", "first_name", "last_name", "display_name", "date_joined", "is_active"}
    }
    data |= {"date_joined_0": "2026-01-01", "date_joined_1": "12:00:00", "display_name": "queen"}
    response = admin_client.post(reverse("admin:accounts_user_change", args=[bo.pk]), data)
    assert response.status_code == 200
    assert "Another player already goes by that name" in response.text
    response = admin_client.post(
        reverse("admin:accounts_user_change", args=[bo.pk]), data | {"display_name": "", "email": "ANNA@example.com"}
    )
    assert "Another account already uses that email address." in response.text
    response = admin_client.post(
        reverse("admin:accounts_user_add"),
        {"username": "Queen", "usable_password": "true", "password1": PASSWORD, "password2": PASSWORD},
    )
    assert "Another player already goes by that name. Choose another username." in response.text
    bo.refresh_from_db()
    assert (bo.display_name, bo.email) == ("", "")
    assert not User.objects.filter(username="Queen").exists()
    response = admin_client.post(
        reverse("admin:accounts_user_change", args=[bo.pk]), data | {"display_name": " Bo  B "}
    )
    assert response.status_code == 302
    bo.refresh_from_db()
    assert bo.display_name == "Bo B"
