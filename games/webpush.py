"""Web Push, the transport alone: one message to one browser's push service, encrypted for that
browser (RFC 8291, by ``pywebpush``) and signed with the site's VAPID key (RFC 8292), so the push
service knows which site sends and nobody between can read it.

The key pair comes from ``FEMKORT_VAPID_PRIVATE_KEY``; without one it is derived from the secret
key, so a fresh install pushes with no setup (rotating the secret key then ends every browser's
subscription: set the key of its own in production).
"""

from __future__ import annotations

import base64
import hashlib
import logging
from functools import lru_cache
from typing import Literal

import requests
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from django.conf import settings
from py_vapid import Vapid02
from pywebpush import WebPushException, webpush

log = logging.getLogger(__name__)
GONE = {404, 410}  # the browser unsubscribed, or the push service forgot it: never try it again
TIMEOUT_SECONDS = 10
Outcome = Literal["sent", "gone", "failed"]


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


@lru_cache(maxsize=1)
def vapid() -> Vapid02:
    configured = settings.FEMKORT_VAPID_PRIVATE_KEY
    if configured:
        return Vapid02.from_string(configured)
    # A P-256 private number from the secret key: any 256-bit value below the group order will do.
    seed = hashlib.sha256(f"vapid key {settings.SECRET_KEY}".encode()).digest()
    order = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551
    return Vapid02(ec.derive_private_key(int.from_bytes(seed) % (order - 1) + 1, ec.SECP256R1()))


def application_server_key() -> str:
    """The public key browsers subscribe with (``applicationServerKey``): base64url, uncompressed point."""
    return b64url(vapid().public_key.public_bytes(Encoding.X962, PublicFormat.UncompressedPoint))


@lru_cache(maxsize=1)
def _session() -> requests.Session:
    """One connection pool for every push service (kept alive between messages)."""
    return requests.Session()


def push_send(*, endpoint: str, p256dh: str, auth: str, data: str, ttl: int, topic: str = "") -> Outcome:
    """Send ``data`` to one subscription: "sent", "gone" (remove the subscription) or "failed"."""
    headers = {"Urgency": "normal"}
    if topic:  # a newer message of the same topic replaces one still waiting at the push service
        headers["Topic"] = topic
    try:
        webpush(
            subscription_info={"endpoint": endpoint, "keys": {"p256dh": p256dh, "auth": auth}},
            data=data,
            vapid_private_key=vapid(),
            vapid_claims={"sub": settings.FEMKORT_VAPID_SUBJECT or f"mailto:{settings.DEFAULT_FROM_EMAIL}"},
            ttl=ttl,
            headers=headers,
            timeout=TIMEOUT_SECONDS,
            requests_session=_session(),
        )
    except WebPushException as error:
        status = error.response.status_code if error.response is not None else None
        if status in GONE:
            return "gone"
        log.warning("push to %s failed: %s", endpoint[:60], status or error)
        return "failed"
    except (requests.RequestException, ValueError) as error:  # unreachable, or keys that are not keys
        log.warning("push to %s failed: %r", endpoint[:60], error)
        return "failed"
    return "sent"
