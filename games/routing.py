"""Websocket routes; the table consumer joins here when live play arrives."""

websocket_urlpatterns: list = []
