from django.contrib import admin
from django.urls import include, path

from accounts.views import language_set

from . import webapp

urlpatterns = [
    path("admin/", admin.site.urls),
    path("language/", language_set, name="set_language"),
    path("accounts/", include("accounts.urls")),
    # At the root: a service worker's scope is its own folder and below.
    path("manifest.webmanifest", webapp.manifest, name="manifest"),
    path("sw.js", webapp.service_worker, name="service_worker"),
    path("offline/", webapp.offline, name="offline"),
    path("", include("games.urls")),
]
