from django.contrib import admin
from django.urls import include, path

from accounts.views import language_set

urlpatterns = [
    path("admin/", admin.site.urls),
    path("language/", language_set, name="set_language"),
    path("accounts/", include("accounts.urls")),
    path("", include("games.urls")),
]
