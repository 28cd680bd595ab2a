from django.apps import AppConfig


class SiteConfig(AppConfig):
    """The project package as an app, so its system checks are registered."""

    name = "femkort_site"
    verbose_name = "Femkort site"

    def ready(self) -> None:
        from . import checks  # noqa: F401  (registers the checks)
