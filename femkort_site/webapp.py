"""The site as an app on a phone's home screen: its web app manifest, its service worker (the
offline page, "your turn" notifications by Web Push) and the offline page.

The service worker keeps nothing private: it stores the offline page (drawn as for a visitor) and
a few static files, and never a page someone asked for, an API answer or a frame.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.template.loader import get_template
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

SITE_NAME = "Femkort Online"
# A home screen shows about twelve letters under an icon: the brand without "Online".
SHORT_NAME = SITE_NAME.removesuffix(" Online")
# static/css/site.css: the page's green (behind the splash screen) and the header's (the bar above it).
BACKGROUND_COLOUR = "#0f3d2e"
THEME_COLOUR = "#0a2a20"
# What the offline page needs to look like the site, and what a notification shows.
PRECACHED_STATIC = ["css/site.css", "js/app.js", "favicon.svg", "app/icon-192.png", "app/badge-96.png"]
CACHE_PREFIX = "femkort-online-"
# The templates the cached offline page is drawn from: a change to one is a new service worker.
OFFLINE_TEMPLATES = ["webapp/offline.html", "base.html"]


@require_safe
def manifest(request: HttpRequest) -> HttpResponse:
    """The web app manifest, in the request's language (each browser installs the app in its own)."""
    data = {
        "id": "/",
        "name": _("Femkort Online"),
        "short_name": SHORT_NAME,
        "description": _(
            "Traditional card games, live: open a table, fill it with friends or computer players, and play."
        ),
        "lang": get_language(),
        "start_url": reverse("lobby"),
        "scope": "/",
        "display": "standalone",
        "background_color": BACKGROUND_COLOUR,
        "theme_color": THEME_COLOUR,
        "categories": ["games"],
        "icons": [
            {"src": static("app/icon-192.png"), "sizes": "192x192", "type": "image/png"},
            {"src": static("app/icon-512.png"), "sizes": "512x512", "type": "image/png"},
            # The card inside the circle a launcher may cut out (tools/app_icons.py), on green to the edges.
            {
                "src": static("app/icon-maskable-512.png"),
                "sizes": "512x512",
                "type": "image/png",
                "purpose": "maskable",
            },
            {"src": static("favicon.svg"), "sizes": "any", "type": "image/svg+xml"},
        ],
    }
    return JsonResponse(data, content_type="application/manifest+json", json_dumps_params={"ensure_ascii": False})


@require_safe
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker, at the site's root so that its scope is the whole site.

    ``no-cache``: the browser asks again at each update check, so a new version (new static
    files, a changed offline page, another language) is installed at once."""
    precache = [reverse("offline"), *(static(path) for path in PRECACHED_STATIC)]
    config = {
        "prefix": CACHE_PREFIX,  # the worker deletes the caches of this prefix but its own
        "cache": CACHE_PREFIX + _version(precache),
        "precache": precache,
        "offline": reverse("offline"),
        "static": settings.STATIC_URL,  # static("") has no entry in production's manifest of hashed names
        "title": _("Femkort Online"),
        "icon": static("app/icon-192.png"),
        "badge": static("app/badge-96.png"),
    }
    response = render(request, "webapp/sw.js", {"config": json.dumps(config, indent=2)}, content_type="text/javascript")
    response["Cache-Control"] = "no-cache"
    return response


def _version(precache: list[str]) -> str:
    """What the cache holds, as a short hash: the cached URLs (hashed names in production), the
    files behind them (the same names in development), the offline page's templates, and the
    language it was drawn in. The cache's name changes with any of them, and the old cache goes."""
    digest = hashlib.sha256(json.dumps(precache).encode())
    for path in PRECACHED_STATIC:
        if found := finders.find(path):
            digest.update(Path(found).read_bytes())
    for name in OFFLINE_TEMPLATES:
        digest.update(get_template(name).template.source.encode())
    digest.update(get_language().encode())
    return digest.hexdigest()[:16]


@require_safe
def offline(request: HttpRequest) -> HttpResponse:
    """What a page shows when the network is gone: stored by the service worker and shown to
    whoever uses this browser later, so drawn as for a visitor, without the header's name and
    friends, and without taking the messages meant for the next real page."""
    request.user = AnonymousUser()
    return render(request, "webapp/offline.html", {"messages": ()})
