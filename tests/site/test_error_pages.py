"""404, 403 and 500 answer in the site's layout and the visitor's language."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import include, path, reverse
from django.utils import translation

from games.models import GameSession

pytestmark = pytest.mark.django_db


def boom(request):
    raise RuntimeError("a bug")


urlpatterns = [path("boom/", boom), path("", include("femkort_site.urls"))]


@pytest.fixture
def swedish():
    with translation.override("en"):  # the request switches the thread to Swedish; switch back after
        yield Client(HTTP_ACCEPT_LANGUAGE="sv", raise_request_exception=False)


def test_a_missing_table_answers_404_in_the_layout_and_language(swedish):
    response = swedish.get(reverse("table", args=[987654]))
    assert response.status_code == 404
    page = response.content.decode()
    assert 'class="site-header"' in page
    assert "Hittades inte" in page
    assert "Back to the lobby" not in page


def test_a_form_without_its_token_answers_403_in_the_layout_and_language(players):
    with translation.override("en"):
        client = Client(enforce_csrf_checks=True, HTTP_ACCEPT_LANGUAGE="sv")
        client.force_login(players[0])
        response = client.post(reverse("play_now"), {"game": "femkort"})
    assert response.status_code == 403
    page = response.content.decode()
    assert 'class="site-header"' in page
    assert "Inte tillåtet" in page
    assert not GameSession.objects.exists()


def test_a_server_error_answers_500_in_the_layout_and_language(swedish, settings):
    settings.ROOT_URLCONF = __name__
    response = swedish.get("/boom/")
    assert response.status_code == 500
    page = response.content.decode()
    assert 'class="site-header"' in page
    assert "Något gick fel" in page
