"""Settings for the stack floor (``tools.bench_floor``): the same daphne, channels-redis, Redis and
PostgreSQL as the site, configured by the site's own helpers (the same connection pool, the same
channel capacity), and nothing of the site itself: no apps, middleware, templates or sessions."""

from __future__ import annotations

import os

from femkort_site.env import database_from_url, redis_host

SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "the-floor-keeps-no-secrets")
DEBUG = False
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
INSTALLED_APPS = ["daphne", "channels"]
ROOT_URLCONF = "tools.bench_floor"
DATABASES = {"default": database_from_url(os.environ["DATABASE_URL"])}
CHANNEL_LAYERS = {
    "default": {
        "BACKEND": "channels_redis.core.RedisChannelLayer",
        "CONFIG": {"hosts": [redis_host(os.environ["REDIS_URL"])], "capacity": 10_000},
    }
}
USE_TZ = True
