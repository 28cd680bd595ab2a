"""Content-Security-Policy on every kind of page, and pages that need no inline code to work under it."""

import json
import re

import pytest
from django.test import Client
from django.urls import reverse

from femkort_site.security import websocket_sources
from games.models import Deal, GameSession
from tests.site_helpers import play_session

pytestmark = pytest.mark.django_db

EXPECTED = {
    "default-src": ["'self'"],
    "script-src": ["'self'"],
    "style-src": ["'self'"],
    "img-src": ["'self'"],
    "object-src": ["'none'"],
    "base-uri": ["'self'"],
    "form-action": ["'self'"],
    "frame-ancestors": ["'none'"],
}
# What a CSP without 'unsafe-inline' blocks: inline <script> (JSON data blocks are not run), <style>
# elements, style="" attributes and on...="" handlers; and javascript: URLs.
INLINE_SCRIPT = re.compile(r"<script\b(?![^>]*\bsrc=)(?![^>]*type=\"application/json\")[^>]*>", re.I)
INLINE_STYLE = re.compile(r"<style\b|\sstyle\s*=", re.I)
HANDLER = re.compile(r"<[^>]*\son[a-z]+\s*=", re.I)
JAVASCRIPT_URL = re.compile(r"javascript:", re.I)


def directives(response) -> dict[str, list[str]]:
    header = response.headers["Content-Security-Policy"]
    return {part.split()[0]: part.split()[1:] for part in header.split(";") if part.strip()}


@pytest.fixture
def pages(players, admin_user):
    """Every kind of page of the site and a few of the admin, as (name, client, url)."""
    anna = Client()
    anna.force_login(players[0])
    anna.post(reverse("table_create"), {"seats": 3, "target": 3, "profile": "modern"})
    table = GameSession.objects.get()
    anna.post(reverse("table_create"), {"seats": 3, "target": 3, "profile": "modern", "trump": "on"})
    playing = GameSession.objects.latest("pk")
    for position in (1, 2):
        anna.post(reverse("computer_add", args=[playing.pk]), {"position": position})
    anna.post(reverse("session_start", args=[playing.pk]))
    finished = play_session(players[1:], computers=1)
    assert GameSession.objects.get(pk=playing.pk).status == GameSession.Status.PLAYING
    deal = Deal.objects.filter(session=finished).first()
    admin = Client()
    admin.force_login(admin_user)
    visitor = Client()
    return [
        ("lobby", visitor, reverse("lobby")),
        ("waiting table", anna, reverse("table", args=[table.pk])),
        ("playing table", anna, reverse("table", args=[playing.pk])),
        ("playing table, spectator", visitor, reverse("table", args=[playing.pk])),
        ("session", visitor, reverse("session", args=[finished.pk])),
        ("replay", visitor, reverse("deal_replay", args=[deal.pk])),
        ("player", visitor, reverse("player", args=["bjorn"])),
        ("leaderboard", visitor, reverse("leaderboard")),
        ("login", visitor, reverse("login")),
        ("signup", visitor, reverse("signup")),
        ("password reset", visitor, reverse("password_reset")),
        ("profile", anna, reverse("profile")),
        ("admin index", admin, reverse("admin:index")),
        ("admin user list", admin, reverse("admin:accounts_user_changelist")),
        ("admin user change", admin, reverse("admin:accounts_user_change", args=[players[0].pk])),
        ("admin session change", admin, reverse("admin:games_gamesession_change", args=[table.pk])),
        ("admin access attempts", admin, reverse("admin:axes_accessattempt_changelist")),
    ]


def test_every_page_has_the_policy(pages):
    for name, client, url in pages:
        response = client.get(url)
        assert response.status_code == 200, name
        policy = directives(response)
        for directive, sources in EXPECTED.items():
            assert policy[directive] == sources, (name, directive)
        assert policy["connect-src"][0] == "'self'", name
        assert all(source.startswith(("ws://", "wss://")) for source in policy["connect-src"][1:]), name
        for forbidden in ("'unsafe-inline'", "'unsafe-eval'", "data:", "*"):
            assert forbidden not in response.headers["Content-Security-Policy"].split(), (name, forbidden)


def test_pages_need_no_inline_code(pages):
    for name, client, url in pages:
        html = client.get(url).text
        for pattern in (INLINE_SCRIPT, INLINE_STYLE, HANDLER, JAVASCRIPT_URL):
            found = pattern.search(html)
            assert found is None, (name, html[max(found.start() - 80, 0) : found.end() + 80])


def test_htmx_is_told_to_add_no_style_and_use_no_eval(client):
    html = client.get(reverse("lobby")).text
    config = json.loads(re.search(r"""<meta name="htmx-config" content='([^']*)'>""", html).group(1))
    assert config["includeIndicatorStyles"] is False
    assert config["allowEval"] is False
    assert "style" not in config["attributesToSettle"]  # settling copies a style attribute: a violation


def test_the_lockout_page_has_the_policy(client, make_user):
    make_user("anna")
    for _ in range(6):
        response = client.post(reverse("login"), {"username": "anna", "password": "wrong"})
    assert response.status_code == 429
    assert directives(response)["script-src"] == ["'self'"]


def test_websocket_sources_of_the_allowed_hosts():
    assert websocket_sources(["femkort.example", ".cards.example", "*", "[::1]"], secure_only=True) == [
        "wss://femkort.example",
        "wss://cards.example",
        "wss://*.cards.example",
    ]
    assert websocket_sources(["localhost"], secure_only=False) == ["ws://localhost:*", "wss://localhost:*"]
