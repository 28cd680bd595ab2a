"""Print a new Web Push (VAPID) key pair: the private key for ``FEMKORT_VAPID_PRIVATE_KEY`` and the
public key browsers will subscribe with."""

from __future__ import annotations

from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from django.core.management.base import BaseCommand

from games.webpush import b64url


class Command(BaseCommand):
    help = "Print a new VAPID key pair for FEMKORT_VAPID_PRIVATE_KEY."

    def handle(self, *args, **options) -> None:
        key = ec.generate_private_key(ec.SECP256R1())
        private = b64url(key.private_numbers().private_value.to_bytes(32, "big"))
        public = b64url(key.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint))
        self.stdout.write(f"FEMKORT_VAPID_PRIVATE_KEY={private}\n# public key (applicationServerKey): {public}")
