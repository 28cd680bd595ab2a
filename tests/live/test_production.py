"""Production mode as deployed (DJANGO_DEBUG=0 under daphne): the page's CSS and scripts are served."""

import re
import urllib.error
import urllib.request

import pytest

from tests.servers import daphne, manage, production_env, server_database_url

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]  # starts servers
ASSET = re.compile(r'<(?:link[^>]*rel="stylesheet"[^>]*href|script[^>]*src)="([^"]+)"')


def fetch(url: str, **headers: str):
    return urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=10)


def test_production_serves_the_pages_css_and_scripts_compressed_and_cached(tmp_path):
    env = production_env(tmp_path / "static", DATABASE_URL=server_database_url(tmp_path))
    manage("collectstatic", "--noinput", env=env)
    with daphne(env) as base:
        page = fetch(base + "/").read().decode()
        assets = ASSET.findall(page)
        assert any(path.endswith(".css") for path in assets)
        assert sum(path.endswith(".js") for path in assets) >= 3  # htmx, its websocket extension, the table
        for path in assets:
            assert re.search(r"\.[0-9a-f]{12}\.(css|js)$", path), f"{path} is not a hashed name"
            response = fetch(base + path, **{"Accept-Encoding": "gzip, br"})
            assert response.status == 200, path
            assert response.headers["Content-Encoding"] in {"gzip", "br"}, path
            assert "immutable" in response.headers["Cache-Control"], path
            kind = "text/css" if path.endswith(".css") else "javascript"
            assert kind in response.headers["Content-Type"], path
        with pytest.raises(urllib.error.HTTPError) as missing:
            fetch(base + "/static/css/nothing-here.css")
        assert missing.value.code == 404
