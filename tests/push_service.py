"""A local Web Push service for the tests: it decrypts every push message with its subscription's
keys (RFC 8291, aes128gcm of RFC 8188) and verifies the VAPID signature (RFC 8292), so a test fails
when the site's encryption or signature is broken, not only when nothing is sent.

The decryption is written here from ``cryptography``'s primitives, not with ``http_ece`` (which
pywebpush encrypts with): a shared library would agree with itself about its own bug.
"""

from __future__ import annotations

import base64
import contextlib
import json
import re
import secrets
import selectors
import socket
import threading
import time
from dataclasses import dataclass
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Self
from urllib.parse import urlsplit

from cryptography.exceptions import InvalidSignature, InvalidTag
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from py_vapid import Vapid01

# RFC 8030 §7.2: a push service must take 4096 octets of payload body and may refuse more with 413;
# the big ones refuse more, so a message that only fits here would be lost in production.
MAX_BODY = 4096
# RFC 8292 §2: "An exp claim MUST NOT be more than 24 hours from the time of the request."
MAX_EXPIRY_SECONDS = 24 * 60 * 60
URGENCIES = frozenset({"very-low", "low", "normal", "high"})  # RFC 8030 §5.3
NAME = re.compile(r"[A-Za-z0-9_-]+")
PATH = re.compile(r"/push/([A-Za-z0-9_-]+)")
B64URL = re.compile(r"[A-Za-z0-9_-]*")


def b64url(data: bytes) -> str:
    """Base64url without padding, as JWTs, VAPID keys and PushSubscription.toJSON() write bytes."""
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def b64url_decode(text: str) -> bytes:
    """Strict unpadded base64url (RFC 7515 §2): padding or another alphabet is the sender's bug."""
    if not B64URL.fullmatch(text) or len(text) % 4 == 1:
        raise ValueError(f"not unpadded base64url: {text[:40]!r}")
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def uncompressed_point(key: ec.EllipticCurvePublicKey) -> bytes:
    """The 65-byte X9.62 form that p256dh, applicationServerKey, VAPID's k and aes128gcm's keyid use."""
    return key.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)


def vapid_keys() -> tuple[str, str]:
    """A new VAPID key pair as the site's settings hold it: ``(private, public)``.

    ``private`` is the raw 32-byte private number in base64url (43 characters, easy in an
    environment variable). pywebpush hands a string that is not a file's path to py_vapid's
    ``Vapid.from_string``, which reads 32 decoded bytes as a raw key (``from_raw``) and anything
    longer as DER; ``Vapid`` there is ``Vapid02``, which signs with RFC 8292's ``vapid`` scheme.
    ``public`` is the uncompressed point in base64url: the ``applicationServerKey`` the browser
    subscribes with, and the ``k`` this service expects.
    """
    vapid = Vapid01()
    vapid.generate_keys()
    private_number = vapid.private_key.private_numbers().private_value.to_bytes(32, "big")
    return b64url(private_number), b64url(uncompressed_point(vapid.public_key))


@dataclass(frozen=True, eq=False)
class BrowserSubscription:
    """What a browser's ``PushManager.subscribe()`` holds: the endpoint, and the keys only it knows."""

    name: str
    endpoint: str
    private_key: ec.EllipticCurvePrivateKey
    auth: bytes

    @property
    def p256dh(self) -> bytes:
        return uncompressed_point(self.private_key.public_key())

    def info(self) -> dict[str, Any]:
        """``PushSubscription.toJSON()``: what the browser posts to the site, and pywebpush takes."""
        return {"endpoint": self.endpoint, "keys": {"p256dh": b64url(self.p256dh), "auth": b64url(self.auth)}}


@dataclass(frozen=True)
class PushMessage:
    """A push message the service accepted: decrypted, with the VAPID claims it was signed with."""

    subscription: str
    payload: bytes
    claims: dict[str, Any]
    headers: dict[str, str]  # names lower-cased (HTTP/2 sends them so): "ttl", "urgency", "topic", ...

    def json(self) -> Any:
        return json.loads(self.payload)


class Rejected(Exception):
    """A push request answered with ``status``; ``failure`` says whether a test should hear of it
    (410 for an unsubscribed browser is the push service behaving, not the sender failing)."""

    def __init__(self, status: HTTPStatus, reason: str, *, failure: bool = True) -> None:
        super().__init__(reason)
        self.status, self.reason, self.failure = status, reason, failure


def decrypt(body: bytes, receiver: ec.EllipticCurvePrivateKey, auth: bytes) -> bytes:
    """The plaintext of an aes128gcm push message body (RFC 8291 §3.4 keys, RFC 8188 framing), as the
    browser that owns ``receiver`` and ``auth`` would decrypt it; ``Rejected`` (400) if it would not.

    RFC 8291 §4 has the sender use a single record and put its 65-byte public key in ``keyid``, so
    that is all a browser must read; anything else is refused.
    """
    if len(body) < 21:
        raise Rejected(HTTPStatus.BAD_REQUEST, f"a body of {len(body)} bytes is shorter than the aes128gcm header")
    salt, record_size, id_length = body[:16], int.from_bytes(body[16:20], "big"), body[20]
    if record_size < 18:
        raise Rejected(HTTPStatus.BAD_REQUEST, f"aes128gcm record size {record_size} is below RFC 8188's minimum 18")
    if id_length != 65:
        raise Rejected(HTTPStatus.BAD_REQUEST, f"keyid of {id_length} bytes, not the sender's 65-byte public key")
    sender_public, record = body[21:86], body[86:]
    try:
        sender = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), sender_public)
    except ValueError:
        raise Rejected(HTTPStatus.BAD_REQUEST, "keyid is not an uncompressed P-256 point") from None
    if len(record) > record_size:
        raise Rejected(HTTPStatus.BAD_REQUEST, f"more than one {record_size}-byte record (RFC 8291 §4: one only)")
    if len(record) < 17:
        raise Rejected(HTTPStatus.BAD_REQUEST, f"a record of {len(record)} bytes cannot hold a tag and a delimiter")

    receiver_public = uncompressed_point(receiver.public_key())
    shared = receiver.exchange(ec.ECDH(), sender)
    key_info = b"WebPush: info\x00" + receiver_public + sender_public
    ikm = HKDF(algorithm=hashes.SHA256(), length=32, salt=auth, info=key_info).derive(shared)
    cek = HKDF(algorithm=hashes.SHA256(), length=16, salt=salt, info=b"Content-Encoding: aes128gcm\x00").derive(ikm)
    nonce = HKDF(algorithm=hashes.SHA256(), length=12, salt=salt, info=b"Content-Encoding: nonce\x00").derive(ikm)
    try:
        padded = AESGCM(cek).decrypt(nonce, record, None)  # record 0: the nonce XOR 0 is the nonce
    except InvalidTag:
        raise Rejected(HTTPStatus.BAD_REQUEST, "does not decrypt with the subscription's keys") from None
    unpadded = padded.rstrip(b"\x00")
    if not unpadded.endswith(b"\x02"):
        raise Rejected(HTTPStatus.BAD_REQUEST, "the record does not end in the last record's delimiter 0x02")
    return unpadded[:-1]


def verify_vapid(authorization: str | None, audience: str, expected_key: bytes | None) -> dict[str, Any]:
    """The claims of an RFC 8292 ``vapid t=<JWT>, k=<key>`` Authorization header, after checking what a
    push service checks; ``Rejected`` with 401 when there is no vapid authentication, 403 when it is
    invalid (RFC 8292 §4.2).
    """
    if not authorization:
        raise Rejected(HTTPStatus.UNAUTHORIZED, "no Authorization header")
    scheme, _, parameters = authorization.strip().partition(" ")
    if scheme.lower() != "vapid":
        # "WebPush <JWT>" with a Crypto-Key header is VAPID's draft 01, which py_vapid.Vapid01 signs.
        raise Rejected(HTTPStatus.UNAUTHORIZED, f"Authorization scheme {scheme!r} is not RFC 8292's 'vapid'")
    params: dict[str, str] = {}
    for part in parameters.split(","):
        key, equals, value = part.strip().partition("=")
        if not equals or key.lower() in params:
            raise Rejected(HTTPStatus.FORBIDDEN, f"malformed vapid parameters: {parameters[:80]!r}")
        params[key.lower()] = value
    if set(params) != {"t", "k"}:
        raise Rejected(HTTPStatus.FORBIDDEN, f"vapid parameters {sorted(params)}, not t and k")

    try:
        public = b64url_decode(params["k"])
        if len(public) != 65:
            raise ValueError("not 65 bytes")
        signer = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), public)
    except ValueError:
        raise Rejected(HTTPStatus.FORBIDDEN, "k is not an uncompressed P-256 point in base64url") from None
    if expected_key is not None and public != expected_key:
        raise Rejected(HTTPStatus.FORBIDDEN, "k is not the application server key the browser subscribed with")

    parts = params["t"].split(".")
    try:
        if len(parts) != 3:
            raise ValueError("not three parts")
        header, claims, signature = (
            json.loads(b64url_decode(parts[0])),
            json.loads(b64url_decode(parts[1])),
            b64url_decode(parts[2]),
        )
    except ValueError:  # json.JSONDecodeError and UnicodeDecodeError are ValueErrors
        raise Rejected(HTTPStatus.FORBIDDEN, "t is not a JWT of three base64url parts") from None
    if not isinstance(header, dict) or header.get("alg") != "ES256":
        raise Rejected(HTTPStatus.FORBIDDEN, f"JWT header {header!r} is not alg ES256")
    if len(signature) != 64:
        raise Rejected(HTTPStatus.FORBIDDEN, f"JWT signature of {len(signature)} bytes, not JOSE's 64 (r || s)")
    der = encode_dss_signature(int.from_bytes(signature[:32], "big"), int.from_bytes(signature[32:], "big"))
    try:
        signer.verify(der, f"{parts[0]}.{parts[1]}".encode("ascii"), ec.ECDSA(hashes.SHA256()))
    except InvalidSignature:
        raise Rejected(HTTPStatus.FORBIDDEN, "the JWT's signature does not verify with k") from None

    if not isinstance(claims, dict):
        raise Rejected(HTTPStatus.FORBIDDEN, f"JWT claims {claims!r} are not an object")
    if claims.get("aud") != audience:
        raise Rejected(HTTPStatus.FORBIDDEN, f"aud {claims.get('aud')!r} is not the push service's {audience!r}")
    expiry, now = claims.get("exp"), time.time()
    if isinstance(expiry, bool) or not isinstance(expiry, int | float):
        raise Rejected(HTTPStatus.FORBIDDEN, f"exp {expiry!r} is not a time")
    if expiry <= now:
        raise Rejected(HTTPStatus.FORBIDDEN, f"the JWT expired {now - expiry:.0f} s ago")
    if expiry > now + MAX_EXPIRY_SECONDS:
        raise Rejected(HTTPStatus.FORBIDDEN, f"exp is {(expiry - now) / 3600:.1f} h ahead, more than 24 h")
    subject = claims.get("sub")
    if not isinstance(subject, str) or not subject.lower().startswith(("mailto:", "https:")):
        raise Rejected(HTTPStatus.FORBIDDEN, f"sub {subject!r} is not a mailto: or https: contact")
    return claims


def check_headers(headers: dict[str, str]) -> None:
    """The RFC 8030 headers a push service reads before the body: ``Rejected`` (400) when wrong."""
    encoding = headers.get("content-encoding")
    if encoding is None or encoding.lower() != "aes128gcm":
        raise Rejected(HTTPStatus.BAD_REQUEST, f"Content-Encoding {encoding!r}, not aes128gcm (RFC 8291 §4)")
    ttl = headers.get("ttl")
    if ttl is None or not ttl.isdigit():
        raise Rejected(HTTPStatus.BAD_REQUEST, f"TTL {ttl!r} is not a number of seconds (RFC 8030 §5.2)")
    urgency = headers.get("urgency")
    if urgency is not None and urgency not in URGENCIES:
        raise Rejected(HTTPStatus.BAD_REQUEST, f"Urgency {urgency!r} is none of {sorted(URGENCIES)} (RFC 8030 §5.3)")
    topic = headers.get("topic")
    if topic is not None and (len(topic) > 32 or not B64URL.fullmatch(topic)):
        raise Rejected(HTTPStatus.BAD_REQUEST, f"Topic {topic!r} is not up to 32 base64url characters (RFC 8030 §5.4)")


class PushService:
    """A Web Push service on 127.0.0.1 (any free port) for the length of a ``with`` block.

    Every ``POST /push/<name>`` is checked as a push service would (headers, VAPID) and decrypted as
    the browser would; an accepted message is stored before its 201 goes out, so a sender that waited
    for its answer can read ``messages()`` at once, and one sent from another thread is awaited with
    ``wait_for()``. ``failures`` lists every rejected request and why: tests assert it is empty.

    ``vapid_public_key`` is the key the site gives browsers as ``applicationServerKey``; given, a
    message signed by any other key is refused, as for a subscription made with that key.
    ``decrypt=False`` is for a benchmark sending thousands: the path and headers are still checked,
    the signature and body are not, and nothing is stored but ``count``.
    """

    url: str  # "http://127.0.0.1:PORT", from entering the ``with`` block

    def __init__(self, *, vapid_public_key: str | None = None, decrypt: bool = True) -> None:
        self.expected_key = b64url_decode(vapid_public_key) if vapid_public_key is not None else None
        self.decrypt = decrypt
        self.failures: list[str] = []
        self.count = 0
        self._condition = threading.Condition()
        self._subscriptions: dict[str, BrowserSubscription] = {}
        self._messages: dict[str, list[PushMessage]] = {}
        self._gone: set[str] = set()

    def __enter__(self) -> Self:
        self._server = _Server(self)
        host, port = self._server.server_address[:2]
        self.url = f"http://{host}:{port}"
        self._thread = threading.Thread(target=self._server.serve, name="push-service", daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._server.stop()
        self._thread.join()
        self._server.close_connections()
        self._server.server_close()  # joins the request threads, whose sockets are shut now

    def subscribe(
        self, name: str, *, private_key: ec.EllipticCurvePrivateKey | None = None, auth: bytes | None = None
    ) -> BrowserSubscription:
        """A new browser subscription at ``{url}/push/{name}``, with new keys unless given (the RFC's
        example keys, say)."""
        if not NAME.fullmatch(name):
            raise ValueError(f"a subscription name is base64url characters, not {name!r}")
        subscription = BrowserSubscription(
            name=name,
            endpoint=f"{self.url}/push/{name}",
            private_key=private_key or ec.generate_private_key(ec.SECP256R1()),
            auth=secrets.token_bytes(16) if auth is None else auth,
        )
        with self._condition:
            if name in self._subscriptions:
                raise ValueError(f"there is a subscription {name!r} already; a browser's new one has a new endpoint")
            self._subscriptions[name] = subscription
            self._messages[name] = []
        return subscription

    def gone(self, name: str) -> None:
        """The browser unsubscribed: from now on its endpoint answers 410 Gone (RFC 8030 §7.3), which
        the site must take as the end of that subscription. Not a failure."""
        with self._condition:
            if name not in self._subscriptions:
                raise KeyError(name)
            self._gone.add(name)

    def messages(self, name: str) -> list[PushMessage]:
        with self._condition:
            return list(self._messages[name])

    def wait_for(self, name: str, count: int = 1, timeout: float = 30) -> list[PushMessage]:
        """Every message for ``name`` once ``count`` have arrived. ``AssertionError`` with what came
        and what was refused when they have not within ``timeout`` seconds, or at once when a request
        to this subscription was refused: the message it carried will not come.
        """
        prefix = f"/push/{name}:"

        def done() -> bool:
            return len(self._messages[name]) >= count or any(f.startswith(prefix) for f in self.failures)

        with self._condition:
            if name not in self._subscriptions:
                raise KeyError(name)
            self._condition.wait_for(done, timeout)
            arrived = list(self._messages[name])
            if len(arrived) >= count:
                return arrived
            raise AssertionError(
                f"{len(arrived)} of {count} push messages for {name!r} arrived: "
                f"{[m.payload for m in arrived]}; failures: {self.failures}"
            )

    def wait_for_count(self, count: int, timeout: float = 30) -> None:
        """Until ``count`` messages were accepted in all (with ``decrypt=False``, none are stored)."""
        with self._condition:
            if not self._condition.wait_for(lambda: self.count >= count, timeout):
                raise AssertionError(f"{self.count} of {count} push messages arrived; failures: {self.failures}")

    def receive(self, path: str, headers: dict[str, str], body: bytes) -> str:
        """The accepted message's id; ``Rejected`` for the answer otherwise. Runs in a request thread."""
        match = PATH.fullmatch(path)
        with self._condition:
            subscription = self._subscriptions.get(match[1]) if match else None
            gone = match is not None and match[1] in self._gone
        if subscription is None:
            raise Rejected(HTTPStatus.NOT_FOUND, "no such subscription")
        if gone:
            raise Rejected(HTTPStatus.GONE, "the browser unsubscribed", failure=False)
        check_headers(headers)
        if len(body) > MAX_BODY:
            raise Rejected(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, f"a body of {len(body)} bytes, over {MAX_BODY}")
        if not self.decrypt:
            if "authorization" not in headers:
                raise Rejected(HTTPStatus.UNAUTHORIZED, "no Authorization header")
            with self._condition:
                self.count += 1
                self._condition.notify_all()
            return secrets.token_hex(8)
        claims = verify_vapid(headers.get("authorization"), self.url, self.expected_key)
        payload = decrypt(body, subscription.private_key, subscription.auth)
        message = PushMessage(subscription=subscription.name, payload=payload, claims=claims, headers=headers)
        with self._condition:
            self._messages[subscription.name].append(message)
            self.count += 1
            self._condition.notify_all()
        return secrets.token_hex(8)

    def refused(self, path: str, rejected: Rejected) -> None:
        if not rejected.failure:
            return
        with self._condition:
            self.failures.append(f"{path}: {rejected.status.value} {rejected.status.phrase}: {rejected.reason}")
            self._condition.notify_all()  # a wait_for on that subscription ends now


class _Server(ThreadingHTTPServer):
    """Keeps the sockets of its requests, so closing the service can end kept-alive connections and
    then join every request thread instead of leaving them reading until the client goes."""

    daemon_threads = False  # joined by server_close(), after close_connections()

    def __init__(self, service: PushService) -> None:
        self.service = service
        self.connections: set[socket.socket] = set()
        self.connections_lock = threading.Lock()
        self.waker, self.wake = socket.socketpair()
        super().__init__(("127.0.0.1", 0), _Handler)

    def serve(self) -> None:
        """``serve_forever()`` without its half-second poll for ``shutdown()`` (which each test's
        teardown would wait out): ``stop()`` wakes it through a socket pair instead."""
        with selectors.DefaultSelector() as selector:
            selector.register(self.socket, selectors.EVENT_READ)
            selector.register(self.waker, selectors.EVENT_READ)
            while True:
                ready = [key.fileobj for key, _ in selector.select()]
                if self.waker in ready:
                    return
                self.handle_request()  # the listening socket is readable: accepts without waiting

    def stop(self) -> None:
        self.wake.send(b"\0")

    def server_close(self) -> None:
        super().server_close()
        self.waker.close()
        self.wake.close()

    def process_request(self, request: Any, client_address: Any) -> None:
        # In serve()'s thread, so once that has ended every accepted socket is in the set.
        with self.connections_lock:
            self.connections.add(request)
        super().process_request(request, client_address)

    def shutdown_request(self, request: Any) -> None:
        with self.connections_lock:
            self.connections.discard(request)
        super().shutdown_request(request)

    def close_connections(self) -> None:
        with self.connections_lock:
            connections = list(self.connections)
        for connection in connections:
            with contextlib.suppress(OSError):  # closed by its thread meanwhile
                connection.shutdown(socket.SHUT_RDWR)


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive: a benchmark's requests.Session reuses its connection
    server: _Server

    def do_POST(self) -> None:
        service: PushService = self.server.service
        path = urlsplit(self.path).path
        length = self.headers.get("Content-Length", "")
        if not length.isdigit():
            self.close_connection = True  # a body of unknown length may follow: the connection is lost
            rejected = Rejected(HTTPStatus.LENGTH_REQUIRED, "no Content-Length")
            service.refused(path, rejected)
            self.answer(rejected.status, rejected.reason)
            return
        body = self.rfile.read(int(length))
        if len(body) < int(length):
            return  # the client went (or the service is closing): no request to answer
        headers = {name.lower(): value for name, value in self.headers.items()}
        try:
            message_id = service.receive(path, headers, body)
        except Rejected as rejected:
            service.refused(path, rejected)  # recorded before the sender hears of it
            self.answer(rejected.status, rejected.reason)
        except Exception as error:  # a bug here: the test fails on it, not on a dropped connection
            failed = Rejected(HTTPStatus.INTERNAL_SERVER_ERROR, f"the push service failed: {error!r}")
            service.refused(path, failed)
            self.answer(failed.status, failed.reason)
        else:
            self.answer(HTTPStatus.CREATED, "", location=f"{service.url}/message/{message_id}")

    def answer(self, status: HTTPStatus, text: str, *, location: str | None = None) -> None:
        """The reason in the body too: pywebpush puts it in its WebPushException, where a test shows it."""
        content = text.encode()
        self.send_response(status)
        if location is not None:
            self.send_header("Location", location)
        self.send_header("Content-Type", "text/plain; charset=utf-8")
        self.send_header("Content-Length", str(len(content)))
        self.end_headers()
        self.wfile.write(content)

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: rejections are in ``failures``; a line per request would bury pytest's output."""
