from django.urls import path

from .live.consumer import TableConsumer

websocket_urlpatterns = [
    path("ws/tables/<int:session_id>/", TableConsumer.as_asgi()),
]
