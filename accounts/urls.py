from django.urls import include, path

from . import views

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("profile/", views.profile, name="profile"),
    path("turn-sound/", views.turn_sound, name="turn_sound"),
    path("password_reset/", views.PasswordReset.as_view(), name="password_reset"),
    path("", include("django.contrib.auth.urls")),
]
