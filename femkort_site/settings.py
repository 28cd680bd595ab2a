"""Settings, read from the environment; with nothing set: SQLite, in-memory channels, DEBUG on.

DATABASE_URL   postgres://user:password@host:5432/name   (default: SQLite file db.sqlite3)
REDIS_URL      redis://127.0.0.1:6379/0                  (default: in-memory channel layer)
DJANGO_DEBUG   1/0                                       (default: 1)
DJANGO_SECRET_KEY, DJANGO_ALLOWED_HOSTS (comma-separated): required when DJANGO_DEBUG=0.
DJANGO_EMAIL_HOST or DJANGO_EMAIL_BACKEND: required when DJANGO_DEBUG=0. All variables: docs/deployment.md, "Settings".
"""

import os
from datetime import timedelta
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

from .env import database_from_url, flag, redis_host, sqlite_database, words
from .security import websocket_sources

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = flag("DJANGO_DEBUG", True)
SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("DJANGO_SECRET_KEY must be set when DJANGO_DEBUG=0")
    SECRET_KEY = "django-insecure-local-development-only-femkort-online-key-0123456789"
ALLOWED_HOSTS = words("DJANGO_ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]" if DEBUG else "")
if not DEBUG and not ALLOWED_HOSTS:
    raise ImproperlyConfigured("DJANGO_ALLOWED_HOSTS must be set when DJANGO_DEBUG=0")
CSRF_TRUSTED_ORIGINS = words("DJANGO_CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "django_htmx",
    "django_tasks",
    "django_tasks_db",
    "accounts",
    "games",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "accounts.middleware.PlayerLanguage",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
]

ROOT_URLCONF = "femkort_site.urls"
ASGI_APPLICATION = "femkort_site.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "games.context.invitations",
            ],
        },
    },
    {
        # The live table's pieces (games/table_html.py): rendered for every socket at every move,
        # about three times cheaper in Jinja2 (docs/live.md, "What a card costs now").
        "BACKEND": "django.template.backends.jinja2.Jinja2",
        "DIRS": [BASE_DIR / "templates" / "jinja2"],
        "APP_DIRS": False,
        "OPTIONS": {"environment": "femkort_site.jinja2.environment"},
    },
]

DATABASES = {
    "default": database_from_url(os.environ["DATABASE_URL"])
    if os.environ.get("DATABASE_URL")
    else sqlite_database(BASE_DIR / "db.sqlite3")
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = os.environ.get("REDIS_URL", "")
# channels-redis' layer over Redis lists ("core") or over Redis pub/sub ("pubsub"); measured side by
# side in docs/live.md ("Channel layers"): core, the default, connects many sockets far faster.
FEMKORT_CHANNEL_LAYER = os.environ.get("FEMKORT_CHANNEL_LAYER", "core")
REDIS_LAYERS = {
    # A process hears every table on one channel; at the default capacity of 100 bursts dropped messages.
    "core": {"BACKEND": "channels_redis.core.RedisChannelLayer", "CONFIG": {"capacity": 10_000}},
    "pubsub": {"BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer", "CONFIG": {}},
}
if FEMKORT_CHANNEL_LAYER not in REDIS_LAYERS:
    raise ImproperlyConfigured(f"FEMKORT_CHANNEL_LAYER must be one of {', '.join(REDIS_LAYERS)}")
CHANNEL_LAYERS = {
    "default": {
        "BACKEND": REDIS_LAYERS[FEMKORT_CHANNEL_LAYER]["BACKEND"],
        "CONFIG": REDIS_LAYERS[FEMKORT_CHANNEL_LAYER]["CONFIG"] | {"hosts": [redis_host(REDIS_URL)]},
    }
    if REDIS_URL
    else {"BACKEND": "channels.layers.InMemoryChannelLayer", "CONFIG": {"capacity": 10_000}}
}

# Seconds a computer player waits before each card when play is live, so humans can follow.
COMPUTER_PAUSE_SECONDS = float(os.environ.get("FEMKORT_COMPUTER_PAUSE", "0.8"))
# Live play in each server process: threads for database work, worker processes for computer
# players' decisions (0: decide in a thread), how often to look for overdue computer turns.
FEMKORT_DB_THREADS = int(os.environ.get("FEMKORT_DB_THREADS", "4"))
FEMKORT_COMPUTER_WORKERS = int(os.environ.get("FEMKORT_COMPUTER_WORKERS", "1"))
# Background work (reviews of finished deals) runs as tasks on Django's Tasks API, queued in the
# site's database (games/tasks.py). Each server process starts this many task workers beside itself,
# at low priority, ending with it (0: none; run ``manage.py tasks_worker`` elsewhere). A task running
# longer than the lease is taken for lost with its worker and run again.
# "tournaments": pairing, rounds and the tournaments' clock, taken by workers of their own so a
# long review never delays a pairing (``FEMKORT_TOURNAMENT_WORKERS``).
TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["default", "tournaments"]}}
FEMKORT_TASK_WORKERS = int(os.environ.get("FEMKORT_TASK_WORKERS", "1"))
FEMKORT_TASK_NICE = int(os.environ.get("FEMKORT_TASK_NICE", "10"))  # how far those workers yield the processor
FEMKORT_TOURNAMENT_WORKERS = int(os.environ.get("FEMKORT_TOURNAMENT_WORKERS", "1"))
FEMKORT_TASK_LEASE_SECONDS = float(os.environ.get("FEMKORT_TASK_LEASE_SECONDS", "600"))
FEMKORT_SWEEP_SECONDS = float(os.environ.get("FEMKORT_SWEEP_SECONDS", "1"))
# A person gone this long on their turn (no live connection, no poll) is replaced by a computer;
# when no person plays their own seat for this long, the session ends as abandoned.
FEMKORT_AWAY_SECONDS = float(os.environ.get("FEMKORT_AWAY_SECONDS", "60"))
FEMKORT_ABANDON_SECONDS = float(os.environ.get("FEMKORT_ABANDON_SECONDS", "60"))
# Turn-based tables: a computer moves for a person whose deadline passed; after this many missed in a
# row it keeps the seat until they take it back. FEMKORT_PACE_FACTOR scales every pace (tests, trials).
FEMKORT_MISSED_DEADLINES = int(os.environ.get("FEMKORT_MISSED_DEADLINES", "3"))
FEMKORT_PACE_FACTOR = float(os.environ.get("FEMKORT_PACE_FACTOR", "1"))
# "Your turn" by e-mail: a digest of every table waiting on the player, sent this long after a turn
# began (they may come by first), and at most once in each period.
FEMKORT_TURN_EMAIL_DELAY_SECONDS = float(os.environ.get("FEMKORT_TURN_EMAIL_DELAY_SECONDS", str(15 * 60)))
FEMKORT_TURN_EMAIL_EVERY_SECONDS = float(os.environ.get("FEMKORT_TURN_EMAIL_EVERY_SECONDS", str(4 * 3600)))
# "Your turn" by Web Push (games/webpush.py): the VAPID key (base64url, raw or DER; empty: derived from
# the secret key) and the contact the push services see (empty: mailto: DJANGO_DEFAULT_FROM_EMAIL).
# Where the site is, for links in e-mails and notifications sent with no request to answer.
FEMKORT_SITE_URL = os.environ.get(
    "FEMKORT_SITE_URL", CSRF_TRUSTED_ORIGINS[0] if CSRF_TRUSTED_ORIGINS else "http://127.0.0.1:8000"
).rstrip("/")
# The push services browsers subscribe with (hosts and their subdomains); the server posts only there.
FEMKORT_PUSH_SERVICES = words(
    "FEMKORT_PUSH_SERVICES",
    "fcm.googleapis.com,push.services.mozilla.com,notify.windows.com,push.apple.com",
)
FEMKORT_VAPID_PRIVATE_KEY = os.environ.get("FEMKORT_VAPID_PRIVATE_KEY", "")
FEMKORT_VAPID_SUBJECT = os.environ.get("FEMKORT_VAPID_SUBJECT", "")
# Tournaments: an arena player free this long is seated with computers if nobody else is free;
# an arena's tables still in play this long after its end may finish and count; the schedule
# (JSON, see games/services/schedule.py; empty: the built-in one); how often the workers look.
FEMKORT_ARENA_FILL_SECONDS = float(os.environ.get("FEMKORT_ARENA_FILL_SECONDS", "20"))
FEMKORT_ARENA_GRACE_SECONDS = float(os.environ.get("FEMKORT_ARENA_GRACE_SECONDS", "300"))
FEMKORT_TOURNAMENT_SCHEDULE = os.environ.get("FEMKORT_TOURNAMENT_SCHEDULE", "")
FEMKORT_TOURNAMENT_TICK_SECONDS = float(os.environ.get("FEMKORT_TOURNAMENT_TICK_SECONDS", "5"))
# Play again: seats kept for the previous session's players this long, then open to anyone.
# Moves the duplicate events' clock (the daily deal's day) by this many seconds: for tests and rehearsals only.
FEMKORT_CLOCK_SHIFT_SECONDS = float(os.environ.get("FEMKORT_CLOCK_SHIFT_SECONDS", "0"))
FEMKORT_REMATCH_HOLD_SECONDS = float(os.environ.get("FEMKORT_REMATCH_HOLD_SECONDS", "120"))
# Redeal by agreement: a computer waits this long before a deal's first card, so people can ask.
FEMKORT_REDEAL_WINDOW_SECONDS = float(os.environ.get("FEMKORT_REDEAL_WINDOW_SECONDS", "5"))
# A computer leads a trick this long after the last one was taken, so people can see who took it.
FEMKORT_TRICK_PAUSE_SECONDS = float(os.environ.get("FEMKORT_TRICK_PAUSE_SECONDS", "1.2"))
# The lobby: waiting tables one host may keep open at once, and how long a waiting table may sit
# with no change and none of its people around before it closes on its own.
FEMKORT_WAITING_TABLES_PER_HOST = int(os.environ.get("FEMKORT_WAITING_TABLES_PER_HOST", "3"))
FEMKORT_WAITING_EXPIRE_SECONDS = float(os.environ.get("FEMKORT_WAITING_EXPIRE_SECONDS", str(30 * 60)))
# A full waiting table whose host has been away this long may be started by anyone seated at it.
FEMKORT_HOST_GONE_SECONDS = float(os.environ.get("FEMKORT_HOST_GONE_SECONDS", "120"))
# Invitations by name: at most this many per inviter in this many seconds ("count/seconds").
FEMKORT_INVITE_RATE = tuple(int(part) for part in os.environ.get("FEMKORT_INVITE_RATE", "10/600").split("/", 1))
# New follows and blocks together: at most this many per player in this many seconds.
FEMKORT_FOLLOW_RATE = tuple(int(part) for part in os.environ.get("FEMKORT_FOLLOW_RATE", "30/600").split("/", 1))
# Private tables' codes: at most this many tries per address and per account in this many seconds
# (the lobby's box and links with ``?code=`` together), so nobody can walk the codes.
FEMKORT_CODE_TRIES = tuple(int(part) for part in os.environ.get("FEMKORT_CODE_TRIES", "10/600").split("/", 1))
# Chat: at most this many messages per user in this many seconds (all tables together),
# "messages/seconds" in the environment.
FEMKORT_CHAT_RATE = tuple(int(part) for part in os.environ.get("FEMKORT_CHAT_RATE", "5/10").split("/", 1))
# The verify page (/deals/verify/): checks per client address (IPv6: its /64) in this many seconds
# ("count/seconds"), counted in the database for every server process; and the most one request may
# give it (bytes, deals). The command line `python -m games.engine verify` checks any size.
FEMKORT_VERIFY_RATE = tuple(int(part) for part in os.environ.get("FEMKORT_VERIFY_RATE", "20/600").split("/", 1))
FEMKORT_VERIFY_MAX_BYTES = int(os.environ.get("FEMKORT_VERIFY_MAX_BYTES", str(256 * 1024)))
FEMKORT_VERIFY_MAX_DEALS = int(os.environ.get("FEMKORT_VERIFY_MAX_DEALS", "100"))
# Open websockets allowed: per signed-in user (all tables), per address for visitors not signed in.
FEMKORT_SOCKETS_PER_USER = int(os.environ.get("FEMKORT_SOCKETS_PER_USER", "8"))
FEMKORT_ANONYMOUS_SOCKETS_PER_IP = int(os.environ.get("FEMKORT_ANONYMOUS_SOCKETS_PER_IP", "16"))
FEMKORT_ANONYMOUS_SOCKETS_PER_TABLE = int(os.environ.get("FEMKORT_ANONYMOUS_SOCKETS_PER_TABLE", "4"))
# Websockets one player (or, not signed in, one address) may open per minute: a page reloaded in a
# loop costs the server a whole table's rendering each time.
FEMKORT_SOCKET_OPENS_PER_MINUTE = int(os.environ.get("FEMKORT_SOCKET_OPENS_PER_MINUTE", "20"))

AUTH_USER_MODEL = "accounts.User"
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "lobby"
LOGOUT_REDIRECT_URL = "lobby"

# --- Hardening: e-mail ------------------------------------------------------------------------
# Password reset needs real mail, so production refuses to start until the operator says where it
# goes: DJANGO_EMAIL_HOST (SMTP) or DJANGO_EMAIL_BACKEND. femkort_site/checks.py warns when production
# explicitly chooses a backend that only prints or drops mail.
INSTALLED_APPS += ["femkort_site"]  # registers femkort_site/checks.py
EMAIL_HOST = os.environ.get("DJANGO_EMAIL_HOST", "")
EMAIL_PORT = int(os.environ.get("DJANGO_EMAIL_PORT", "587"))
EMAIL_HOST_USER = os.environ.get("DJANGO_EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("DJANGO_EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = flag("DJANGO_EMAIL_USE_TLS", True)
DEFAULT_FROM_EMAIL = os.environ.get("DJANGO_DEFAULT_FROM_EMAIL", "webmaster@localhost")
EMAIL_BACKEND = os.environ.get("DJANGO_EMAIL_BACKEND", "")
EMAIL_FILE_PATH = os.environ.get("DJANGO_EMAIL_FILE_PATH", "")  # the file-based backend's folder (tests, trials)
if not EMAIL_BACKEND:
    if EMAIL_HOST:
        EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    elif DEBUG:
        EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
    else:
        raise ImproperlyConfigured(
            "Set DJANGO_EMAIL_HOST (SMTP) or DJANGO_EMAIL_BACKEND when DJANGO_DEBUG=0: password reset needs mail"
        )
# --- end e-mail ---------------------------------------------------------------------------------

LANGUAGE_CODE = "en"
# Each language in its own name, as the switcher shows it.
LANGUAGES = [
    ("en", "English"),
    ("sv", "Svenska"),
    ("ru", "Русский"),
    ("uk", "Українська"),
    ("es", "Español"),
    ("it", "Italiano"),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(os.environ.get("DJANGO_STATIC_ROOT") or BASE_DIR / "staticfiles")
if not DEBUG:
    # WhiteNoise serves what collectstatic wrote: hashed names, gzip and brotli, cached for a year.
    # (With DEBUG on, runserver serves the files from their apps' folders.)
    MIDDLEWARE.insert(1, "whitenoise.middleware.WhiteNoiseMiddleware")
    STORAGES = {
        "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
        "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
    }

# Reverse proxies in front of the site (DJANGO_PROXY_COUNT): only then are their headers trusted,
# the client's address from X-Forwarded-For (femkort_site/proxies.py) and HTTPS from X-Forwarded-Proto.
PROXY_COUNT = int(os.environ.get("DJANGO_PROXY_COUNT", "0"))

if not DEBUG:
    SECURE_SSL_REDIRECT = flag("DJANGO_SECURE_SSL_REDIRECT", True)
    if PROXY_COUNT > 0:
        SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_HSTS_SECONDS = int(os.environ.get("DJANGO_HSTS_SECONDS", str(60 * 60 * 24 * 365)))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True

# --- Hardening: HTTPS behind a proxy ----------------------------------------------------------
# DJANGO_SECURE_SSL_REDIRECT=0 means the TLS proxy redirects plain HTTP itself, so the deploy check's
# warning that Django does not (security.W008) is silenced on purpose. SECURE_PROXY_SSL_HEADER above
# trusts X-Forwarded-Proto (when DJANGO_PROXY_COUNT says a proxy is there): the proxy MUST set or
# overwrite it on every request.
if not DEBUG and not SECURE_SSL_REDIRECT:
    SILENCED_SYSTEM_CHECKS = ["security.W008"]
# --- end HTTPS behind a proxy -------------------------------------------------------------------

# --- Hardening: Content-Security-Policy (django-csp) -------------------------------------------
# Pages use only files from this site: no inline script or style, no eval (htmx is told so in base.html).
# CSP Level 3 lets 'self' match ws:/wss: on the page's own host and port (Chromium since 70, Firefox);
# Safari did not until 2022, so each allowed host's websocket origin is listed as well.
INSTALLED_APPS += ["csp"]
MIDDLEWARE += ["csp.middleware.CSPMiddleware"]
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'"],
        "connect-src": ["'self'", *websocket_sources(ALLOWED_HOSTS, secure_only=not DEBUG)],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    },
}
# --- end Content-Security-Policy ----------------------------------------------------------------

# --- Hardening: bad URLs ---------------------------------------------------------------------
# A NUL (or other control character) in a path would otherwise reach a query: PostgreSQL answers 500.
# Early: before sessions, users and their languages are read for it.
MIDDLEWARE.insert(
    MIDDLEWARE.index("django.middleware.security.SecurityMiddleware") + 1,
    "femkort_site.security.RejectControlCharactersMiddleware",
)
# --- end bad URLs -------------------------------------------------------------------------------

# --- Hardening: login throttling (django-axes) -------------------------------------------------
# After AXES_FAILURE_LIMIT wrong passwords for one username from one address, that pair is refused for
# the cool-off (every further try restarts it); a right password resets the count. Admins unlock under
# Admin > Axes > Access attempts, or with `manage.py axes_reset`.
INSTALLED_APPS += ["axes"]
MIDDLEWARE += ["axes.middleware.AxesMiddleware"]  # must stay last
AUTHENTICATION_BACKENDS = ["axes.backends.AxesStandaloneBackend", "django.contrib.auth.backends.ModelBackend"]
AXES_FAILURE_LIMIT = 5
AXES_COOLOFF_TIME = timedelta(minutes=15)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "accounts.views.locked_out"
# The client address is REMOTE_ADDR, which ClientAddressMiddleware (first of all) has already taken
# from X-Forwarded-For as DJANGO_PROXY_COUNT says (femkort_site/proxies.py): one rule for the whole site.
AXES_IPWARE_META_PRECEDENCE_ORDER = ("REMOTE_ADDR",)
MIDDLEWARE.insert(0, "femkort_site.proxies.ClientAddressMiddleware")
# --- end login throttling -----------------------------------------------------------------------

# --- Hardening: password reset throttling (accounts/services.py) ------------------------------
# Reset mails per address typed, and requests per client address (IPv6: per /64), in a sliding window;
# counted in the database (accounts.Throttle), so every server process shares the counts.
FEMKORT_PASSWORD_RESET_PER_EMAIL = int(os.environ.get("FEMKORT_PASSWORD_RESET_PER_EMAIL", "3"))
FEMKORT_PASSWORD_RESET_PER_CLIENT = int(os.environ.get("FEMKORT_PASSWORD_RESET_PER_CLIENT", "10"))
FEMKORT_PASSWORD_RESET_WINDOW_MINUTES = int(os.environ.get("FEMKORT_PASSWORD_RESET_WINDOW_MINUTES", "60"))
# --- end password reset throttling --------------------------------------------------------------
