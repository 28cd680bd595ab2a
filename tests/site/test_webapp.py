"""The site as an app: the manifest a browser installs it from, the service worker (which stores
nothing but the offline page and static files, and shows "your turn" notifications), the offline
page, and the links every page carries to them. tests/browser/test_home_screen_app.py runs them
in Chromium."""

from __future__ import annotations

import json
import re
import struct
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.messages import get_messages
from django.contrib.messages.storage import default_storage
from django.contrib.sessions.backends.db import SessionStore
from django.contrib.staticfiles import finders
from django.test import RequestFactory
from django.urls import reverse

from femkort_site import webapp

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]


def png_size(path: Path) -> tuple[int, int]:
    """Width and height from a PNG's signature and IHDR chunk (the first, by the format's rule)."""
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n", path
    assert head[12:16] == b"IHDR", path
    return struct.unpack(">II", head[16:24])


def static_file(url: str) -> Path:
    assert url.startswith(settings.STATIC_URL), url
    found = finders.find(url.split(settings.STATIC_URL, 1)[1])
    assert found, f"{url} is no static file"
    return Path(found)


def service_worker(client, **headers) -> tuple[str, dict]:
    """The worker's text and its CONFIG (the one JSON object the view writes into it)."""
    text = client.get(reverse("service_worker"), headers=headers).text
    config = re.search(r"^const CONFIG = (\{.*?^\});$", text, re.S | re.M)
    assert config, "the worker has no CONFIG"
    return text, json.loads(config.group(1))


def test_the_manifest_names_the_app_and_starts_it_standalone_on_the_site(client):
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    manifest = json.loads(response.content)
    assert manifest["name"] == "Femkort Online"
    assert manifest["short_name"] == "Femkort"
    assert manifest["start_url"] == "/"
    assert manifest["scope"] == "/"
    assert manifest["display"] == "standalone"
    assert manifest["description"]


def test_the_manifests_colours_are_the_sites(client):
    manifest = json.loads(client.get(reverse("manifest")).content)
    css = (ROOT / "static" / "css" / "site.css").read_text()
    body = re.search(r"^body \{[^}]*background: (#[0-9a-f]{6})", css, re.M).group(1)
    header = re.search(r"^\.site-header \{[^}]*background: (#[0-9a-f]{6})", css, re.M).group(1)
    assert manifest["background_color"] == body
    assert manifest["theme_color"] == header


def test_the_manifests_icons_are_static_files_of_the_sizes_it_says(client):
    icons = json.loads(client.get(reverse("manifest")).content)["icons"]
    pngs = [icon for icon in icons if icon["type"] == "image/png"]
    for icon in pngs:
        width, height = png_size(static_file(icon["src"]))
        assert icon["sizes"] == f"{width}x{height}", icon
    assert {icon["sizes"] for icon in pngs} >= {"192x192", "512x512"}
    assert [icon["sizes"] for icon in pngs if icon.get("purpose") == "maskable"] == ["512x512"]
    assert any(icon.get("purpose", "any") == "any" and icon["sizes"] == "512x512" for icon in pngs)
    svg = [icon for icon in icons if icon["type"] == "image/svg+xml"]
    assert [icon["src"] for icon in svg] == ["/static/favicon.svg"]
    assert static_file(svg[0]["src"]).read_text().startswith("<svg")


def test_the_icons_stay_small():
    sizes = {path.name: path.stat().st_size for path in (ROOT / "static" / "app").glob("*.png")}
    assert len(sizes) >= 4
    assert all(size < 20_000 for size in sizes.values()), sizes


def test_the_manifest_is_in_the_requests_language(client):
    english = json.loads(client.get(reverse("manifest")).content)
    swedish = json.loads(client.get(reverse("manifest"), headers={"accept-language": "sv"}).content)
    assert swedish["lang"] == "sv"
    assert swedish["description"] != english["description"]
    assert swedish["start_url"] == english["start_url"]


def test_the_service_worker_is_javascript_asked_for_afresh_at_the_sites_root(client):
    assert reverse("service_worker") == "/sw.js"  # a worker's scope is its own folder and below
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].split(";")[0] == "text/javascript"
    assert response["Cache-Control"] == "no-cache"


def test_the_service_worker_shows_a_push_and_opens_its_page_when_clicked(client):
    text, config = service_worker(client)
    for event in ("install", "activate", "fetch", "push", "notificationclick"):
        assert f'self.addEventListener("{event}"' in text, event
    assert "event.data.json()" in text
    assert "self.registration.showNotification(" in text
    assert "renotify: true" in text
    assert "self.clients.openWindow(url)" in text
    assert ".focus()" in text
    for icon in (config["icon"], config["badge"]):
        assert png_size(static_file(icon))[0] >= 96


def test_the_service_worker_stores_only_the_offline_page_and_static_files(client):
    """The cache's only write is install's addAll of CONFIG.precache: no page, no JSON, no frame
    the worker sees is ever put in it (a ``cache.put`` of a page would be a private page stored)."""
    text, config = service_worker(client)
    code = re.sub(r"//[^\n]*", "", text)  # comments may say "put"
    writes = re.findall(r"\.(put|add|addAll)\(", code)
    assert writes == ["addAll"], writes
    assert "const requests = CONFIG.precache.map(" in code
    assert "cache.addAll(requests)" in code
    assert config["offline"] == reverse("offline")
    pages = [url for url in config["precache"] if not url.startswith(config["static"])]
    assert pages == [reverse("offline")]
    assert config["static"] == settings.STATIC_URL == "/static/"
    for url in config["precache"][1:]:
        static_file(url)
    assert static_file(config["precache"][1]).suffix == ".css"


def test_the_service_worker_answers_a_page_from_the_network_first(client):
    """A page comes from the network; only a failure to reach it at all gives the offline page."""
    text, _ = service_worker(client)
    handler = re.search(r"async function pageOrOffline\(event\) \{(.*?)^\}", text, re.S | re.M).group(1)
    network, offline = handler.split("catch")
    assert "fetch(event.request)" in network
    assert "caches.match(CONFIG.offline" in offline
    assert 'request.mode === "navigate"' in text
    assert 'request.method !== "GET") return' in text


def test_the_cache_is_named_for_what_it_holds(client, monkeypatch, tmp_path):
    """A new static file or another language is a new cache (and the old one is deleted on activate)."""
    _, english = service_worker(client)
    _, again = service_worker(client)
    _, swedish = service_worker(client, accept_language="sv")
    assert english["cache"] == again["cache"]
    assert swedish["cache"] != english["cache"]
    assert english["cache"].startswith(english["prefix"])
    assert swedish["cache"].startswith(english["prefix"])
    changed = tmp_path / "site.css"
    changed.write_text("body { color: red; }")
    real = finders.find
    monkeypatch.setattr(finders, "find", lambda path, **kw: str(changed) if path == "css/site.css" else real(path))
    _, restyled = service_worker(client)
    assert restyled["cache"] != english["cache"]


def test_the_offline_page_answers_anyone(client):
    response = client.get("/offline/")
    assert response.status_code == 200
    assert reverse("offline") == "/offline/"
    assert "You are offline" in response.text
    assert "Your tables wait for you; this page comes back when the connection does." in response.text
    assert "data-offline" in response.text
    assert "Content-Security-Policy" in response


def test_the_offline_page_shows_nothing_of_who_asked(client, players):
    """The worker stores it, and whoever uses the browser later may see it: no name, no friends."""
    client.force_login(players[0])
    page = client.get("/offline/").text
    assert players[0].username not in page
    assert reverse("logout") not in page
    assert reverse("login") in page
    assert client.get(reverse("lobby")).text.count(players[0].username) > 0  # the same client, signed in


def test_the_offline_page_leaves_the_next_pages_messages(players):
    request = RequestFactory().get("/offline/")
    request.session = SessionStore()
    request._messages = default_storage(request)
    request._messages.add(20, "Anna is invited.")
    response = webapp.offline(request)
    assert "Anna is invited." not in response.content.decode()
    assert [str(message) for message in get_messages(request)] == ["Anna is invited."]


@pytest.mark.parametrize("name", ["lobby", "login", "leaderboard", "offline"])
def test_every_page_links_the_manifest_and_loads_the_app_script(client, name):
    page = client.get(reverse(name)).text
    head = page.split("</head>", 1)[0]
    assert '<link rel="manifest" href="/manifest.webmanifest">' in head
    manifest = json.loads(client.get(reverse("manifest")).content)
    assert f'<meta name="theme-color" content="{manifest["theme_color"]}">' in head
    touch = re.search(r'<link rel="apple-touch-icon" href="([^"]+)">', head).group(1)
    assert png_size(static_file(touch)) == (180, 180)
    script = re.search(r"<script [^>]*js/app\.js[^>]*>", head).group(0)
    assert " defer" in script
    assert 'data-service-worker="/sw.js"' in script


def test_the_install_button_waits_hidden_in_the_header_before_the_language_switch(client, players):
    for viewer in (None, players[0]):
        if viewer:
            client.force_login(viewer)
        nav = re.search(r"<nav>(.*?)</nav>", client.get(reverse("lobby")).text, re.S).group(1)
        button = re.search(r'<button type="button" id="install-app"[^>]*>', nav).group(0)
        assert " hidden" in button
        assert nav.index('id="install-app"') < nav.index('class="inline language-switch')


def test_the_push_switch_markup_app_js_reads_is_the_markup_its_comment_documents():
    """The switch is rendered on Settings from app.js's comment: every data attribute the script
    reads or sets must be in it."""
    script = (ROOT / "static" / "js" / "app.js").read_text()
    documented = script.split('"use strict";', 1)[0]
    read = {
        re.sub(r"[A-Z]", lambda m: "-" + m.group(0).lower(), name)
        for name in re.findall(r"box\.dataset\.(\w+)", script)
    }
    read |= set(re.findall(r'querySelector(?:All)?\("\[data-([\w-]+)\]"\)', script)) - {"offline"}
    assert read >= {"vapid-key", "subscribe-url", "unsubscribe-url", "text-on", "text-off", "push-switch", "push-on"}
    missing = sorted(name for name in read if f"data-{name}" not in documented)
    assert missing == []
