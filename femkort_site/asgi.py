"""ASGI entry point: HTTP through Django, websockets through Channels (served by daphne)."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "femkort_site.settings")
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402  (needs Django set up first)
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from games.live.drivers import ensure_started  # noqa: E402
from games.routing import websocket_urlpatterns  # noqa: E402

from .origin import SameOriginWebsockets  # noqa: E402


class StartsComputerDrivers:
    """The first request or socket in a process starts its sweep for overdue computer turns
    (daphne has no start-up hook), so a restarted server resumes tables on its own.
    """

    def __init__(self, application):
        self.application = application

    async def __call__(self, scope, receive, send):
        if scope["type"] in ("http", "websocket"):
            ensure_started()
        return await self.application(scope, receive, send)


application = StartsComputerDrivers(
    ProtocolTypeRouter(
        {
            "http": django_asgi_app,
            "websocket": SameOriginWebsockets(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
        }
    )
)
