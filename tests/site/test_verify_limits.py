"""The verify page's limits: what one request may give it, how often one address may ask, and an
answer that shows verdicts, never the export pasted (issue 42, items 3 and 5)."""

from __future__ import annotations

import json
import random

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from games.engine import GAMES
from games.engine import verify as engine_verify
from tools.bench_verify import exported

pytestmark = pytest.mark.django_db


@pytest.fixture
def session_export() -> list[dict]:
    """Twelve deals of several games, as the site exports them, each with its own seed."""
    rng = random.Random(42)
    games = list(GAMES.values())
    return [exported(games[number % len(games)], rng, number) for number in range(12)]


@pytest.fixture
def checks(monkeypatch) -> list[object]:
    """Every deal the engine is asked to verify, whichever way the page reaches it."""
    seen: list[object] = []
    original = engine_verify.verify

    def counted(record: object) -> list[str]:
        seen.append(record)
        return original(record)

    monkeypatch.setattr(engine_verify, "verify", counted)
    return seen


def verify_post(export: object, *, address: str = "192.0.2.10", upload: bool = False):
    text = json.dumps(export)
    data = {"file": SimpleUploadedFile("export.json", text.encode())} if upload else {"export": text}
    return Client().post(reverse("deal_verify"), data, REMOTE_ADDR=address)


@pytest.mark.parametrize("upload", [False, True])
def test_the_answer_shows_verdicts_not_the_export(session_export, upload):
    response = verify_post(session_export, upload=upload)
    assert response.status_code == 200
    page = response.content.decode()
    assert page.count('class="verified"') == len(session_export)
    for record in session_export:
        assert record["fair"]["seed"] not in page
        assert json.dumps(record["fair"]["setup"])[:40] not in page
    assert len(response.content) < len(json.dumps(session_export))
    assert '<textarea id="verify-export" name="export" rows="12" spellcheck="false"></textarea>' in page


def test_a_deal_that_differs_everywhere_shows_its_first_differences(session_export):
    record = session_export[0] | {f"field {number}": number for number in range(500)}
    response = verify_post(record)
    page = response.content.decode()
    assert page.count("should not be there") == 10
    assert "and 490 more differences" in page
    assert len(response.content) < 20_000


def test_a_session_export_giving_a_deal_twice_is_refused(session_export):
    doubled = [*session_export[:3], session_export[1]]
    page = verify_post(doubled).content.decode()
    assert page.count('class="verified"') == 3
    assert page.count('class="differs"') == 1
    assert "the same deal as deal 2 of the list" in page


def test_contributions_merged_across_seats_are_refused_on_the_page():
    record = exported(GAMES["nap"], random.Random(5), 5, contributions=["c0ffee", "0badf00d", ""])
    assert verify_post(record).content.decode().count('class="verified"') == 1
    record["fair"]["contributions"] = ["c0ffee\n0badf00d", ""]
    page = verify_post(record).content.decode()
    assert 'class="differs"' in page
    assert "the contributions: 2 given for 3 seats" in page


def test_too_many_deals_are_refused_with_nothing_checked(session_export, settings, checks):
    settings.FEMKORT_VERIFY_MAX_DEALS = 10
    response = verify_post(session_export)
    assert response.status_code == 413
    page = response.content.decode()
    assert "That export has 12 deals; this page checks at most 10 at once." in page
    assert "python -m games.engine verify" in page
    assert "verdicts" not in page
    assert checks == []
    assert verify_post(session_export[:10]).status_code == 200
    assert len(checks) == 10


@pytest.mark.parametrize("upload", [False, True])
def test_too_many_bytes_are_refused_with_nothing_checked(session_export, settings, checks, upload):
    settings.FEMKORT_VERIFY_MAX_BYTES = 10_000
    assert len(json.dumps(session_export)) > 10_000
    response = verify_post(session_export, upload=upload)
    assert response.status_code == 413
    page = response.content.decode()
    assert "That export is larger than 9.8\xa0KB, the most this page checks at once." in page
    assert "python -m games.engine verify" in page
    assert session_export[0]["fair"]["seed"] not in page
    assert checks == []


def test_the_default_limits_are_far_below_what_loaded_the_server(settings):
    assert settings.FEMKORT_VERIFY_MAX_BYTES <= 512 * 1024  # 2 MB and 1,098 deals took 2.2 s
    assert settings.FEMKORT_VERIFY_MAX_DEALS <= 200


def test_an_address_over_its_rate_is_refused_with_nothing_checked(session_export, settings, checks):
    settings.FEMKORT_VERIFY_RATE = (2, 600)
    one = session_export[:1]
    assert verify_post(one).status_code == 200
    assert verify_post(one, upload=True).status_code == 200
    assert len(checks) == 2
    refused = verify_post(one)
    assert refused.status_code == 429
    page = refused.content.decode()
    assert "Too many checks from your network in a short time" in page
    assert "verdicts" not in page
    assert len(checks) == 2  # nothing verified
    assert Client().get(reverse("deal_verify"), REMOTE_ADDR="192.0.2.10").status_code == 200  # the empty form
    deal = Client().get(reverse("deal_verify") + "?deal=1", REMOTE_ADDR="192.0.2.10")
    assert deal.status_code == 429  # a deal of the site is a check too, refused before it is looked up
    assert verify_post(one, address="192.0.2.11").status_code == 200  # another address has its own count
    assert verify_post(one, address="2001:db8:1:2::5").status_code == 200
    assert verify_post(one, address="2001:db8:1:2::6").status_code == 200
    assert verify_post(one, address="2001:db8:1:2:ffff::7").status_code == 429  # one /64
