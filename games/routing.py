from django.urls import path

from .live.consumer import TableConsumer
from .live.notices import NoticeConsumer

websocket_urlpatterns = [
    path("ws/tables/<int:session_id>/", TableConsumer.as_asgi()),
    path("ws/notices/", NoticeConsumer.as_asgi()),
]
