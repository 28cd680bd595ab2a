"""Password reset mails are limited per address typed and per client address, in the database (so every
server process shares the counts), with a clear refusal that says nothing about who has an account."""

import re
import threading

import pytest
from django.core import mail
from django.db import connection, connections
from django.test import Client
from django.urls import reverse
from django.utils import translation

from accounts.models import Throttle
from accounts.services import PasswordResetThrottled, password_reset_count

pytestmark = pytest.mark.django_db
REFUSED_FOR_ADDRESS = "Too many reset links have been asked for this email address."
REFUSED_FOR_CLIENT = "Too many password reset requests from your network."


def ask(email: str, client: str = "203.0.113.5"):
    """Each request from a new browser: the counts are not kept in a session or a cookie."""
    return Client(REMOTE_ADDR=client).post(reverse("password_reset"), {"email": email})


def test_three_mails_to_one_address_then_a_clear_refusal(make_user):
    make_user("anna", email="anna@example.com")
    for typed in ["anna@example.com", "ANNA@example.com", " Anna@Example.com "]:  # one address, as the form reads it
        assert ask(typed).status_code == 302
    assert len(mail.outbox) == 3
    refused = ask("anna@example.com", client="198.51.100.7")  # from elsewhere too
    assert refused.status_code == 429
    assert REFUSED_FOR_ADDRESS in refused.text
    assert "in 60 minutes" in refused.text
    assert len(mail.outbox) == 3
    assert ask("bo@example.com").status_code == 302  # other addresses are not affected


def test_the_refusal_is_the_same_whether_or_not_an_account_uses_the_address(make_user):
    make_user("anna", email="anna@example.com")
    answers = {}
    for email in ["anna@example.com", "nobody@example.com"]:
        for _ in range(3):
            ask(email)
        answers[email] = ask(email)
    assert len(mail.outbox) == 3
    known, unknown = answers["anna@example.com"], answers["nobody@example.com"]
    assert known.status_code == unknown.status_code == 429
    assert page(known, "anna@example.com") == page(unknown, "nobody@example.com")


def page(response, email: str) -> str:
    """The page without the address typed and the CSRF tokens (new for every page)."""
    return re.sub(r"\b[A-Za-z0-9]{64}\b", "TOKEN", response.text.replace(email, "ADDRESS"))


def test_ten_requests_from_one_client_address_then_a_refusal(make_user):
    make_user("anna", email="anna@example.com")
    for number in range(10):
        assert ask(f"someone{number}@example.com").status_code == 302
    refused = ask("anna@example.com")
    assert refused.status_code == 429
    assert REFUSED_FOR_CLIENT in refused.text
    assert mail.outbox == []
    assert ask("anna@example.com", client="198.51.100.7").status_code == 302
    assert len(mail.outbox) == 1


def test_an_ipv6_client_is_counted_by_its_64_block(settings):
    settings.FEMKORT_PASSWORD_RESET_PER_CLIENT = 2
    assert ask("a@example.com", client="2001:db8:1:2::1").status_code == 302
    assert ask("b@example.com", client="2001:db8:1:2:ffff::9").status_code == 302
    assert ask("c@example.com", client="2001:db8:1:2::77").status_code == 429
    assert ask("c@example.com", client="2001:db8:1:3::1").status_code == 302


def test_limits_are_settings_and_the_window_slides(settings, make_user):
    settings.FEMKORT_PASSWORD_RESET_PER_EMAIL = 1
    settings.FEMKORT_PASSWORD_RESET_WINDOW_MINUTES = 30
    make_user("anna", email="anna@example.com")
    assert ask("anna@example.com").status_code == 302
    refused = ask("anna@example.com")
    assert refused.status_code == 429
    assert "in 30 minutes" in refused.text
    for row in Throttle.objects.all():  # the earlier request is now 31 minutes old
        row.hits = [hit - 31 * 60 for hit in row.hits]
        row.save()
    assert ask("anna@example.com").status_code == 302
    assert len(mail.outbox) == 2


def test_the_database_holds_no_address_typed():
    ask("anna@example.com")
    keys = list(Throttle.objects.values_list("key", flat=True))
    assert len(keys) == 2
    assert not any("anna" in key for key in keys)
    assert "reset-client:203.0.113.5" in keys


def test_the_refusal_is_in_the_players_language(make_user):
    for _ in range(10):
        ask("x@example.com")
    with translation.override("en"):  # the request switches this thread to Swedish; switch back after
        refused = Client(REMOTE_ADDR="203.0.113.5", HTTP_ACCEPT_LANGUAGE="sv").post(
            reverse("password_reset"), {"email": "y@example.com"}
        )
    assert refused.status_code == 429
    assert REFUSED_FOR_CLIENT not in refused.text
    assert "om 60 minuter" in refused.text


@pytest.mark.skipif(connection.vendor != "postgresql", reason="concurrent writers: PostgreSQL's row locks")
@pytest.mark.django_db(transaction=True)
def test_requests_at_the_same_moment_are_counted_one_at_a_time():
    """Twelve requests for one address at once (as from several server processes): exactly three pass,
    whatever the interleaving, because each key's row is locked while it is counted."""
    start = threading.Barrier(12)
    outcomes = []

    def request(number: int) -> None:
        start.wait()
        try:
            password_reset_count(email="anna@example.com", client=f"203.0.113.{number}")
            outcomes.append("sent")
        except PasswordResetThrottled:
            outcomes.append("refused")
        finally:
            connections.close_all()

    threads = [threading.Thread(target=request, args=(number,)) for number in range(12)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["refused"] * 9 + ["sent"] * 3
