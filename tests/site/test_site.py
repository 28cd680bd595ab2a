"""The site answers: lobby over HTTP, ASGI app wiring."""

import pytest

from femkort_site.asgi import application


@pytest.mark.django_db
def test_lobby_is_the_home_page(client):
    response = client.get("/")
    assert response.status_code == 200
    assert "Femkort Online" in response.text
    assert "htmx" in response.text


def test_asgi_routes_http_and_websockets():
    router = application.application
    assert set(router.application_mapping) == {"http", "websocket"}
    websocket = router.application_mapping["websocket"]
    assert type(websocket).__name__ == "SameOriginWebsockets"
