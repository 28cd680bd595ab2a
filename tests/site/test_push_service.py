"""The tests' push service (tests/push_service.py) takes what pywebpush sends as a browser would, and
refuses what a browser could not decrypt or a push service would not accept: the site's push tests
lean on both."""

from __future__ import annotations

import json
import secrets
import threading
import time
from collections.abc import Iterator
from typing import Any

import http_ece
import pytest
import requests
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from py_vapid import Vapid, Vapid01, Vapid02
from pywebpush import WebPusher, WebPushException, webpush

from tests.push_service import (
    BrowserSubscription,
    PushService,
    b64url,
    b64url_decode,
    uncompressed_point,
    vapid_keys,
)

CONTACT = "mailto:test@example.com"


@pytest.fixture(scope="module")
def keys() -> tuple[str, str]:
    return vapid_keys()


@pytest.fixture
def service(keys: tuple[str, str]) -> Iterator[PushService]:
    with PushService(vapid_public_key=keys[1]) as service:
        yield service


def send(subscription_info: dict[str, Any], data: str, private_key: Any, **options: Any) -> requests.Response:
    """pywebpush as the site calls it (a fresh claims dict each time: webpush() writes aud and exp into it)."""
    return webpush(
        subscription_info=subscription_info,
        data=data,
        vapid_private_key=private_key,
        vapid_claims={"sub": CONTACT},
        timeout=30,
        **options,
    )


def authorization(
    private_key: str, claims: dict[str, Any], *, alg: str = "ES256", k: str | None = None, der: bool = False
) -> str:
    """A vapid Authorization header signed here, so a test can sign what py_vapid would refuse to
    (``der``: the signature as cryptography gives it, not JOSE's r || s, a sender's likely slip)."""
    key = Vapid.from_string(private_key).private_key
    header = b64url(json.dumps({"typ": "JWT", "alg": alg}).encode())
    body = b64url(json.dumps(claims).encode())
    signed = key.sign(f"{header}.{body}".encode(), ec.ECDSA(hashes.SHA256()))
    r, s = decode_dss_signature(signed)
    signature = b64url(signed if der else r.to_bytes(32, "big") + s.to_bytes(32, "big"))
    return f"vapid t={header}.{body}.{signature}, k={k or b64url(uncompressed_point(key.public_key()))}"


def post(subscription: BrowserSubscription, body: bytes, **headers: str) -> requests.Response:
    """A push request as sent, for what pywebpush would not send."""
    headers = {"Content-Encoding": "aes128gcm", "TTL": "0", **headers}
    return requests.post(subscription.endpoint, data=body, headers=headers, timeout=30)


def encrypted(subscription: BrowserSubscription, data: bytes) -> bytes:
    """pywebpush's aes128gcm body for the subscription."""
    return WebPusher(subscription.info()).encode(data)["body"]


def claims(service: PushService, **changes: Any) -> dict[str, Any]:
    return {"aud": service.url, "exp": int(time.time()) + 3600, "sub": CONTACT, **changes}


def test_a_subscription_is_what_a_browser_posts_to_the_site(service: PushService) -> None:
    anna = service.subscribe("anna")
    info = anna.info()
    assert info["endpoint"] == f"{service.url}/push/anna"
    assert service.url.startswith("http://127.0.0.1:")
    assert set(info["keys"]) == {"p256dh", "auth"}
    p256dh, auth = b64url_decode(info["keys"]["p256dh"]), b64url_decode(info["keys"]["auth"])
    assert "=" not in info["keys"]["p256dh"] + info["keys"]["auth"]
    assert len(p256dh) == 65
    assert p256dh[0] == 4
    assert auth == anna.auth
    assert len(auth) == 16
    assert service.subscribe("bjorn").auth != auth


def test_vapid_keys_are_a_private_key_pywebpush_reads_from_a_string_and_its_public_key() -> None:
    private, public = vapid_keys()
    assert len(private) == 43  # 32 bytes, base64url unpadded: one environment variable
    vapid = Vapid.from_string(private)  # what pywebpush does with a string that is not a file's path
    assert isinstance(vapid, Vapid02)  # RFC 8292's "vapid" scheme, not draft 01's "WebPush"
    assert b64url(uncompressed_point(vapid.public_key)) == public
    assert vapid_keys()[0] != private


@pytest.mark.parametrize(
    "data",
    [
        pytest.param("7", id="one-byte"),
        pytest.param(json.dumps({"table": 7, "title": "Din tur", "text": "Åsa väntar"}, ensure_ascii=False), id="json"),
        pytest.param("x" * 3993, id="largest"),  # the most that fits a 4096-byte body
    ],
)
def test_a_pywebpush_message_arrives_decrypted_and_signed(
    service: PushService, keys: tuple[str, str], data: str
) -> None:
    anna = service.subscribe("anna")

    response = send(anna.info(), data, keys[0], ttl=60, headers={"Urgency": "high", "Topic": "table-7"})

    assert response.status_code == 201
    assert response.headers["Location"].startswith(f"{service.url}/message/")
    [message] = service.messages("anna")  # stored before the answer went out
    assert message.payload == data.encode()
    assert message.subscription == "anna"
    assert message.claims["aud"] == service.url
    assert message.claims["sub"] == CONTACT
    assert time.time() < message.claims["exp"] <= time.time() + 24 * 3600
    assert (message.headers["ttl"], message.headers["urgency"], message.headers["topic"]) == ("60", "high", "table-7")
    assert message.headers["content-encoding"] == "aes128gcm"
    assert service.failures == []
    assert service.count == 1


def test_a_json_payload_reads_back(service: PushService, keys: tuple[str, str]) -> None:
    anna = service.subscribe("anna")
    send(anna.info(), json.dumps({"table": 7, "title": "Din tur", "text": "Åsa väntar"}), keys[0])
    assert service.wait_for("anna")[0].json() == {"table": 7, "title": "Din tur", "text": "Åsa väntar"}


def test_a_message_over_4096_bytes_is_refused_as_by_a_real_push_service(
    service: PushService, keys: tuple[str, str]
) -> None:
    anna = service.subscribe("anna")
    with pytest.raises(WebPushException) as refused:
        send(anna.info(), "x" * 3994, keys[0])
    assert refused.value.response.status_code == 413
    assert service.failures == ["/push/anna: 413 Request Entity Too Large: a body of 4097 bytes, over 4096"]


def test_the_rfc_8291_example_decrypts(service: PushService, keys: tuple[str, str]) -> None:
    """RFC 8291 §5's message, from keys and bytes in the RFC: the decryption is checked against the
    standard, not only against pywebpush's encryption (which might share its mistakes)."""
    receiver = ec.derive_private_key(
        int.from_bytes(b64url_decode("q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94"), "big"), ec.SECP256R1()
    )
    example = service.subscribe("example", private_key=receiver, auth=b64url_decode("BTBZMqHH6r4Tts7J_aSIgg"))
    assert example.info()["keys"]["p256dh"] == (
        "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"
    )
    body = b64url_decode(
        "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBr"
        "u3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN"
    )

    response = post(example, body, Authorization=authorization(keys[0], claims(service)))

    assert response.status_code == 201, response.text
    assert service.messages("example")[0].payload == b"When I grow up, I want to be a watermelon"
    assert service.failures == []


def test_a_body_encrypted_for_another_subscription_is_refused(service: PushService, keys: tuple[str, str]) -> None:
    anna, bjorn = service.subscribe("anna"), service.subscribe("bjorn")
    wrong_keys = {"endpoint": anna.endpoint, "keys": bjorn.info()["keys"]}

    with pytest.raises(WebPushException) as refused:
        send(wrong_keys, '{"table": 7}', keys[0])

    assert refused.value.response.status_code == 400
    assert service.failures == ["/push/anna: 400 Bad Request: does not decrypt with the subscription's keys"]
    assert service.messages("anna") == []
    assert service.count == 0


@pytest.mark.parametrize(
    ("flipped", "status"),
    [
        pytest.param(None, 201, id="unchanged"),
        pytest.param(3, 400, id="salt"),
        pytest.param(40, 400, id="sender-key"),
        pytest.param(90, 400, id="ciphertext"),
        pytest.param(-1, 400, id="tag"),
    ],
)
def test_a_body_with_one_byte_changed_is_refused(
    service: PushService, keys: tuple[str, str], flipped: int | None, status: int
) -> None:
    anna = service.subscribe("anna")
    body = bytearray(encrypted(anna, b'{"table": 7, "text": "Your turn"}'))
    if flipped is not None:
        body[flipped] ^= 0x01

    response = post(anna, bytes(body), Authorization=authorization(keys[0], claims(service)))

    assert response.status_code == status, response.text
    assert len(service.messages("anna")) == (status == 201)
    assert len(service.failures) == (status != 201)
    if flipped is not None:
        assert service.failures[0].startswith("/push/anna: 400 Bad Request: ")


def encrypt_record(subscription: BrowserSubscription, plaintext: bytes) -> bytes:
    """A one-record aes128gcm body of ``plaintext`` as given, its delimiter and padding included, keyed
    as RFC 8291 §3.4 says: for the bodies pywebpush never sends (padded, or with a wrong delimiter)."""
    sender = ec.generate_private_key(ec.SECP256R1())
    sender_public, salt = uncompressed_point(sender.public_key()), secrets.token_bytes(16)
    shared = sender.exchange(ec.ECDH(), subscription.private_key.public_key())
    key_info = b"WebPush: info\x00" + subscription.p256dh + sender_public
    ikm = HKDF(algorithm=hashes.SHA256(), length=32, salt=subscription.auth, info=key_info).derive(shared)
    cek = HKDF(algorithm=hashes.SHA256(), length=16, salt=salt, info=b"Content-Encoding: aes128gcm\x00").derive(ikm)
    nonce = HKDF(algorithm=hashes.SHA256(), length=12, salt=salt, info=b"Content-Encoding: nonce\x00").derive(ikm)
    return salt + (4096).to_bytes(4, "big") + bytes([65]) + sender_public + AESGCM(cek).encrypt(nonce, plaintext, None)


@pytest.mark.parametrize(
    ("plaintext", "payload"),
    [
        pytest.param(b"hi\x02", b"hi", id="unpadded"),
        pytest.param(b"hi\x02" + bytes(100), b"hi", id="padded"),
        pytest.param(b"hi\x00\x00\x02" + bytes(5), b"hi\x00\x00", id="payload-ending-in-zeros"),
        pytest.param(b"hi\x01", None, id="not-the-last-records-delimiter"),
        pytest.param(b"hi", None, id="no-delimiter"),
        pytest.param(bytes(10), None, id="only-padding"),
    ],
)
def test_padding_and_its_delimiter(
    service: PushService, keys: tuple[str, str], plaintext: bytes, payload: bytes | None
) -> None:
    anna = service.subscribe("anna")

    response = post(anna, encrypt_record(anna, plaintext), Authorization=authorization(keys[0], claims(service)))

    if payload is not None:
        assert response.status_code == 201, response.text
        assert service.messages("anna")[0].payload == payload
        assert service.failures == []
    else:
        assert response.status_code == 400
        assert service.failures == [
            "/push/anna: 400 Bad Request: the record does not end in the last record's delimiter 0x02"
        ]


def test_a_sender_key_not_in_the_65_byte_form_is_refused(service: PushService, keys: tuple[str, str]) -> None:
    """RFC 8291 §4: keyid is the sender's key uncompressed; a compressed point (33 bytes) is not."""
    anna = service.subscribe("anna")
    body = encrypted(anna, b"{}")
    sender = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), body[21:86])
    compressed = sender.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.CompressedPoint)

    response = post(
        anna, body[:20] + bytes([33]) + compressed + body[86:], Authorization=authorization(keys[0], claims(service))
    )

    assert response.status_code == 400
    assert service.failures == ["/push/anna: 400 Bad Request: keyid of 33 bytes, not the sender's 65-byte public key"]


def test_a_body_of_more_than_one_record_is_refused(service: PushService, keys: tuple[str, str]) -> None:
    """RFC 8291 §4: one record, so that a browser need read no more (http_ece splits at rs bytes)."""
    anna = service.subscribe("anna")
    sender = ec.generate_private_key(ec.SECP256R1())
    body = http_ece.encrypt(
        b"x" * 100, private_key=sender, dh=anna.p256dh, auth_secret=anna.auth, rs=50, version="aes128gcm"
    )

    response = post(anna, body, Authorization=authorization(keys[0], claims(service)))

    assert response.status_code == 400
    assert service.failures == ["/push/anna: 400 Bad Request: more than one 50-byte record (RFC 8291 §4: one only)"]


def test_a_message_signed_by_another_key_than_the_sites_is_refused(service: PushService) -> None:
    anna = service.subscribe("anna")
    other_private, _ = vapid_keys()

    with pytest.raises(WebPushException) as refused:
        send(anna.info(), "{}", other_private)

    assert refused.value.response.status_code == 403
    assert service.failures == [
        "/push/anna: 403 Forbidden: k is not the application server key the browser subscribed with"
    ]


def test_a_signature_by_another_key_under_the_sites_k_is_refused(service: PushService, keys: tuple[str, str]) -> None:
    anna = service.subscribe("anna")
    other_private, _ = vapid_keys()
    forged = authorization(other_private, claims(service), k=keys[1])

    response = post(anna, encrypted(anna, b"{}"), Authorization=forged)

    assert response.status_code == 403
    assert service.failures == ["/push/anna: 403 Forbidden: the JWT's signature does not verify with k"]


def test_a_der_signature_is_refused(service: PushService, keys: tuple[str, str]) -> None:
    anna = service.subscribe("anna")
    response = post(anna, encrypted(anna, b"{}"), Authorization=authorization(keys[0], claims(service), der=True))
    assert response.status_code == 403
    [failure] = service.failures
    assert "not JOSE's 64 (r || s)" in failure


@pytest.mark.parametrize(
    ("changes", "alg", "status", "reason"),
    [
        pytest.param({}, "ES256", 201, None, id="valid"),
        pytest.param({"exp_in": -60}, "ES256", 403, "the JWT expired", id="expired"),
        pytest.param({"exp_in": 25 * 3600}, "ES256", 403, "more than 24 h", id="over-24h"),
        pytest.param({"exp": "tomorrow"}, "ES256", 403, "is not a time", id="exp-text"),
        pytest.param({"aud": "https://fcm.googleapis.com"}, "ES256", 403, "is not the push service's", id="aud"),
        pytest.param({"sub": None}, "ES256", 403, "is not a mailto: or https: contact", id="no-sub"),
        pytest.param({"sub": "test@example.com"}, "ES256", 403, "is not a mailto: or https:", id="bare-sub"),
        pytest.param({}, "HS256", 403, "is not alg ES256", id="alg"),
    ],
)
def test_vapid_claims_a_push_service_refuses(
    service: PushService,
    keys: tuple[str, str],
    changes: dict[str, Any],
    alg: str,
    status: int,
    reason: str | None,
) -> None:
    anna = service.subscribe("anna")
    if "exp_in" in changes:  # from now, not from when the tests were collected
        changes = {"exp": int(time.time()) + changes["exp_in"]}
    signed = {name: value for name, value in claims(service, **changes).items() if value is not None}

    response = post(anna, encrypted(anna, b"{}"), Authorization=authorization(keys[0], signed, alg=alg))

    assert response.status_code == status, response.text
    if reason is None:
        assert service.failures == []
        assert service.messages("anna")[0].claims == signed
    else:
        [failure] = service.failures
        assert failure.startswith("/push/anna: 403 Forbidden: ")
        assert reason in failure


def test_pywebpush_keeps_an_exp_more_than_24_hours_ahead_and_the_service_refuses_it(
    service: PushService, keys: tuple[str, str]
) -> None:
    anna = service.subscribe("anna")
    with pytest.raises(WebPushException) as refused:
        webpush(
            anna.info(),
            "{}",
            vapid_private_key=keys[0],
            vapid_claims={"sub": CONTACT, "exp": int(time.time()) + 25 * 3600},
            timeout=30,
        )
    assert refused.value.response.status_code == 403
    assert "more than 24 h" in service.failures[0]


def test_a_vapid01_object_signs_the_draft_scheme_which_is_refused(service: PushService, keys: tuple[str, str]) -> None:
    """pywebpush signs with a Vapid01 object as given: draft 01's "WebPush" scheme, not RFC 8292's
    "vapid". The site must hand it the key string (or a py_vapid.Vapid), which this catches."""
    anna = service.subscribe("anna")
    with pytest.raises(WebPushException) as refused:
        send(anna.info(), "{}", Vapid01.from_string(keys[0]))
    assert refused.value.response.status_code == 401
    assert service.failures == [
        "/push/anna: 401 Unauthorized: Authorization scheme 'WebPush' is not RFC 8292's 'vapid'"
    ]


@pytest.mark.parametrize(
    ("headers", "status", "reason"),
    [
        pytest.param({"Authorization": None}, 401, "no Authorization header", id="no-authorization"),
        pytest.param({"TTL": ""}, 400, "TTL '' is not a number", id="empty-ttl"),
        pytest.param({"TTL": None}, 400, "TTL None is not a number", id="no-ttl"),
        pytest.param({"Content-Encoding": "aesgcm"}, 400, "Content-Encoding 'aesgcm', not aes128gcm", id="aesgcm"),
        pytest.param({"Content-Encoding": None}, 400, "Content-Encoding None", id="no-encoding"),
        pytest.param({"Urgency": "urgent"}, 400, "Urgency 'urgent' is none of", id="urgency"),
        pytest.param({"Topic": "table:7"}, 400, "Topic 'table:7'", id="topic-character"),
        pytest.param({"Topic": "t" * 33}, 400, "is not up to 32 base64url characters", id="topic-length"),
    ],
)
def test_headers_a_push_service_refuses(
    service: PushService, keys: tuple[str, str], headers: dict[str, str | None], status: int, reason: str
) -> None:
    anna = service.subscribe("anna")
    sent = {
        "Content-Encoding": "aes128gcm",
        "TTL": "0",
        "Authorization": authorization(keys[0], claims(service)),
        **headers,
    }
    sent = {name: value for name, value in sent.items() if value is not None}

    response = requests.post(anna.endpoint, data=encrypted(anna, b"{}"), headers=sent, timeout=30)

    assert response.status_code == status
    [failure] = service.failures
    assert failure.startswith(f"/push/anna: {status} ")
    assert reason in failure


def test_an_unknown_endpoint_is_not_found(service: PushService, keys: tuple[str, str]) -> None:
    anna = service.subscribe("anna")
    nobody = {"endpoint": f"{service.url}/push/nobody", "keys": anna.info()["keys"]}
    with pytest.raises(WebPushException) as refused:
        send(nobody, "{}", keys[0])
    assert refused.value.response.status_code == 404
    assert service.failures == ["/push/nobody: 404 Not Found: no such subscription"]


def test_an_unsubscribed_browsers_endpoint_is_gone_and_that_is_no_failure(
    service: PushService, keys: tuple[str, str]
) -> None:
    anna = service.subscribe("anna")
    send(anna.info(), "1", keys[0])
    service.gone("anna")

    with pytest.raises(WebPushException) as refused:
        send(anna.info(), "2", keys[0])

    assert refused.value.response.status_code == 410
    assert [message.payload for message in service.messages("anna")] == [b"1"]
    assert service.failures == []
    assert service.count == 1


def test_wait_for_waits_for_messages_sent_from_another_thread(service: PushService, keys: tuple[str, str]) -> None:
    anna = service.subscribe("anna")
    errors: list[BaseException] = []

    def sender() -> None:
        try:
            with requests.Session() as session:  # one kept-alive connection for all three
                for number in range(3):
                    send(anna.info(), str(number), keys[0], requests_session=session)
        except BaseException as error:
            errors.append(error)

    thread = threading.Thread(target=sender)
    thread.start()
    arrived = service.wait_for("anna", count=3)
    thread.join()

    assert errors == []
    assert [message.payload for message in arrived] == [b"0", b"1", b"2"]
    assert service.failures == []


def test_wait_for_says_what_arrived_when_the_time_is_up(service: PushService, keys: tuple[str, str]) -> None:
    anna = service.subscribe("anna")
    send(anna.info(), "first", keys[0])
    with pytest.raises(AssertionError, match=r"1 of 2 push messages for 'anna' arrived: \[b'first'\]"):
        service.wait_for("anna", count=2, timeout=0)


def test_wait_for_ends_at_once_when_a_message_to_that_subscription_was_refused(
    service: PushService, keys: tuple[str, str]
) -> None:
    """Without this the test would wait out the timeout (pytest-timeout's 300 s ends it first)."""
    anna, bjorn = service.subscribe("anna"), service.subscribe("bjorn")
    with pytest.raises(WebPushException):
        send({"endpoint": anna.endpoint, "keys": bjorn.info()["keys"]}, "{}", keys[0])
    with pytest.raises(AssertionError, match="does not decrypt with the subscription's keys"):
        service.wait_for("anna", timeout=3600)


def test_without_decryption_the_service_only_counts(keys: tuple[str, str]) -> None:
    with PushService(decrypt=False) as service:
        anna = service.subscribe("anna")
        with requests.Session() as session:
            for number in range(5):
                send(anna.info(), str(number), keys[0], requests_session=session)
        response = post(anna, b"not encrypted at all", Authorization="vapid t=x, k=y")
        service.wait_for_count(6)
        assert response.status_code == 201
        assert service.count == 6
        assert service.messages("anna") == []
        assert service.failures == []


def test_the_service_stops_listening_and_its_threads_end(keys: tuple[str, str]) -> None:
    threads = set(threading.enumerate())
    with requests.Session() as session:
        with PushService() as service:
            anna = service.subscribe("anna")
            send(anna.info(), "1", keys[0], requests_session=session)
            assert set(threading.enumerate()) - threads  # the server's, and one reading the kept-alive connection
        assert set(threading.enumerate()) <= threads  # ended and joined, though the client keeps its connection
        with pytest.raises(requests.ConnectionError):
            requests.post(anna.endpoint, data=b"", timeout=30)
