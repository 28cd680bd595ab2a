"""Six languages: complete, compiled, up to date with the sources, and what every page and table
state renders is in the viewer's language (no English message left in a translated page)."""

import asyncio
import os
import re
import shutil
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import ngettext

from games import services
from games.models import Deal, GameSession, Play
from games.stored import deal_state
from tests.live_helpers import connect, frames_until
from tests.site_helpers import play_session, started_table

ROOT = Path(__file__).resolve().parents[2]
LOCALE = Path(settings.LOCALE_PATHS[0])
TRANSLATED = [code for code, _ in settings.LANGUAGES if code != settings.LANGUAGE_CODE]
PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|%[sd]")


def catalogue(language: str) -> polib.POFile:
    return polib.pofile(str(LOCALE / language / "LC_MESSAGES" / "django.po"))


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_message_is_translated_and_none_is_fuzzy(language):
    po = catalogue(language)
    assert [entry.msgid for entry in po.untranslated_entries()] == []
    assert [entry.msgid for entry in po.fuzzy_entries()] == []
    assert po.obsolete_entries() == []
    assert f"Language: {language}" in po.metadata.get("Language", "") or po.metadata.get("Language") == language


@pytest.mark.parametrize("language", TRANSLATED)
def test_translations_keep_every_placeholder(language):
    wrong = []
    for entry in catalogue(language).translated_entries():
        if entry.msgid_plural:
            expected = set(PLACEHOLDER.findall(entry.msgid_plural))
            wrong += [
                entry.msgid for form in entry.msgstr_plural.values() if set(PLACEHOLDER.findall(form)) != expected
            ]
        elif set(PLACEHOLDER.findall(entry.msgid)) != set(PLACEHOLDER.findall(entry.msgstr)):
            wrong.append(entry.msgid)
    assert wrong == []


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_committed_mo_file_is_compiled_from_the_po_file(language):
    """The site reads the .mo files (committed, so a fresh clone needs no gettext tools)."""

    po = catalogue(language)
    mo = polib.mofile(str(LOCALE / language / "LC_MESSAGES" / "django.mo"))
    assert compiled(mo) == compiled(po), "run: .venv/bin/python manage.py compilemessages --ignore=.venv"
    assert po.metadata["Plural-Forms"] == mo.metadata["Plural-Forms"]


def compiled(entries) -> dict:
    """What a catalogue says: (context, message) to its translation (plural forms by index)."""
    said = {}
    for entry in entries:
        if entry.msgid_plural:
            said[(entry.msgctxt, entry.msgid)] = {int(k): v for k, v in entry.msgstr_plural.items()}
        elif entry.msgid and entry.msgstr:
            said[(entry.msgctxt, entry.msgid)] = entry.msgstr
    return said


def test_the_catalogues_hold_every_message_of_the_sources(tmp_path):
    """Extract the messages again from a copy of the sources: nothing new may be missing."""
    if shutil.which("xgettext") is None:
        if os.environ.get("CI"):
            pytest.fail("xgettext (GNU gettext) is needed to check the catalogues against the sources")
        pytest.skip("needs xgettext (GNU gettext): `sudo apt install gettext`")
    for name in ("manage.py", "femkort_site", "games", "accounts", "templates"):
        source = ROOT / name
        (shutil.copytree if source.is_dir() else shutil.copy)(
            source, tmp_path / name, **({"ignore": shutil.ignore_patterns("__pycache__")} if source.is_dir() else {})
        )
    subprocess.run(
        [sys.executable, "manage.py", "makemessages", "-l", "sv", "--no-obsolete"],
        cwd=tmp_path,
        check=True,
        capture_output=True,
        timeout=120,
    )
    fresh = {
        (e.msgctxt, e.msgid, e.msgid_plural) for e in polib.pofile(str(tmp_path / "locale/sv/LC_MESSAGES/django.po"))
    }
    for language in TRANSLATED:
        known = {(e.msgctxt, e.msgid, e.msgid_plural) for e in catalogue(language)}
        assert sorted(fresh - known, key=str) == [], f"{language}: run makemessages, translate, compilemessages"
        assert sorted(known - fresh, key=str) == [], f"{language}: messages no longer in the sources"


@pytest.mark.parametrize("language", ["ru", "uk"])
def test_russian_and_ukrainian_count_with_three_forms(language):
    with translation.override(language):
        forms = [ngettext("%(n)s card left", "%(n)s cards left", n) % {"n": n} for n in (1, 3, 5, 21, 22, 11)]
    one, few, many, twenty_one, twenty_two, eleven = forms
    assert len({one.replace("1", "N"), few.replace("3", "N"), many.replace("5", "N")}) == 3
    assert twenty_one.replace("21", "1") == one
    assert twenty_two.replace("22", "3") == few
    assert eleven.replace("11", "5") == many


# --- pages in every language --------------------------------------------------------------------


def english_fragments(language: str) -> list[str]:
    """Pieces of English messages long enough to be unmistakable, from messages whose translation differs."""
    fragments = set()
    for entry in catalogue(language).translated_entries():
        texts = [entry.msgid, entry.msgid_plural] if entry.msgid_plural else [entry.msgid]
        translated = " ".join(entry.msgstr_plural.values()) if entry.msgid_plural else entry.msgstr
        for text in texts:
            for piece in re.split(r"%\(\w+\)[sd]|%[sd]|<[^>]+>|\{\{[^}]*\}\}", text):
                piece = piece.strip(" .,:;!?()—-\n")
                if len(piece) >= 12 and " " in piece and piece not in translated:
                    fragments.add(piece)
    return sorted(fragments)


def visible(html: str) -> str:
    """The page's text and the attribute values people read (labels, titles, placeholders)."""
    attributes = re.findall(r'(?:aria-label|title|placeholder|alt|data-said)="([^"]*)"', html)
    text = re.sub(r"<script.*?</script>|<style.*?</style>", " ", html, flags=re.S)
    text = re.sub(r"<[^>]+>", " ", text)
    text = " ".join([text, *attributes])
    # Django escapes ' and " as &#x27; and &quot;, the table's Jinja2 pieces (markupsafe) as &#39; and &#34;.
    for entity, character in (("&#x27;", "'"), ("&#39;", "'"), ("&quot;", '"'), ("&#34;", '"'), ("&amp;", "&")):
        text = text.replace(entity, character)
    return text


@pytest.fixture
def pages(players):
    """Every page, and the table in each state it can be in: (name, user or None, url)."""
    host, other = players[:2]
    waiting = services.table_create(host=host, seats=3)
    services.computer_add(session_id=waiting.pk, user=host, position=1)
    playing = started_table(players)
    finished = play_session(players, seed=5)
    deal = finished.deals.order_by("number").first()
    # A session just after its first deal: deal 2 dealt, nothing played yet.
    between = play_session(players, seed=21)
    later = between.deals.filter(number__gt=2)
    Play.objects.filter(deal__in=later).delete()
    later.delete()
    Play.objects.filter(deal__number=2, deal__session=between).delete()
    Deal.objects.filter(session=between, number=2).update(winner=None, finished=None)
    GameSession.objects.filter(pk=between.pk).update(status="playing", winner=None)
    services.chat_post(session_id=playing.pk, user=other, text="hej")
    nap = started_table(players, game="nap", options={})
    euchre = started_table(players, computers=1, game="euchre", options={})
    euchre_done = play_session(players, computers=1, game="euchre", options={}, seed=3)
    euchre_deal = euchre_done.deals.filter(finished__isnull=False).order_by("number").last()
    table = lambda session: reverse("table", args=[session.pk])  # noqa: E731
    return [
        ("rules of Nap", None, reverse("rules", args=["nap"])),
        ("rules of Euchre", None, reverse("rules", args=["euchre"])),
        ("lobby, Euchre", host, reverse("lobby") + "?game=euchre"),
        ("Nap table, bidding", _to_act(nap), table(nap)),
        ("Nap table, waiting for a bid", host if _to_act(nap) != host else other, table(nap)),
        ("Euchre table", _to_act(euchre) or host, table(euchre)),
        ("Euchre, finished", host, table(euchre_done)),
        ("Euchre session page", None, reverse("session", args=[euchre_done.pk])),
        ("Euchre replay", None, reverse("deal_replay", args=[euchre_deal.pk]) + "?step=3"),
        ("lobby", host, reverse("lobby")),
        ("lobby, signed out", None, reverse("lobby")),
        ("lobby, Letzter Stich", host, reverse("lobby") + "?game=letzter_stich"),
        ("rules of Femkort", None, reverse("rules", args=["femkort"])),
        ("rules of Letzter Stich", None, reverse("rules", args=["letzter_stich"])),
        ("leaderboard", None, reverse("leaderboard")),
        ("player", None, reverse("player", args=[host.username])),
        ("log in", None, reverse("login")),
        ("sign up", None, reverse("signup")),
        ("settings", host, reverse("profile")),
        ("password reset", None, reverse("password_reset")),
        ("waiting table, host", host, table(waiting)),
        ("waiting table, visitor", other, table(waiting)),
        ("playing table", host, table(playing)),
        ("playing table", other, table(playing)),
        ("playing table, spectator", None, table(playing)),
        ("between deals", host, table(between)),
        ("finished table", host, table(finished)),
        ("leave the session", host, reverse("session_leave", args=[playing.pk])),
        ("session page", None, reverse("session", args=[finished.pk])),
        ("replay", None, reverse("deal_replay", args=[deal.pk])),
    ]


def _to_act(session: GameSession):
    """The person whose turn it is at ``session`` (None for a computer)."""
    seat = session.seats.get(position=deal_state(session.deals.order_by("-number").first()).to_act)
    return seat.user


@pytest.mark.django_db
@pytest.mark.parametrize("language", TRANSLATED)
def test_every_page_and_table_state_is_in_the_viewers_language(language, pages):
    fragments = english_fragments(language)
    assert len(fragments) > 100
    left = {}
    for name, user, url in pages:
        client = Client(HTTP_ACCEPT_LANGUAGE=language)
        if user is not None:
            client.force_login(user)
        page = client.get(url)
        assert page.status_code == 200, name
        html = page.content.decode()
        assert f'<html lang="{language}"' in html, name
        text = visible(html)
        found = [fragment for fragment in fragments if fragment in text]
        if found:
            left[name] = found
    assert left == {}


# --- choosing a language --------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_first_visit_follows_the_browser_and_the_switcher_remembers_on_the_account(players):
    page = Client(HTTP_ACCEPT_LANGUAGE="ru,en;q=0.5").get(reverse("lobby")).content.decode()
    with translation.override("ru"):
        assert translation.gettext("Lobby") in page
    assert '<html lang="ru"' in page
    client = Client(HTTP_ACCEPT_LANGUAGE="ru")
    client.force_login(players[0])
    answer = client.post(reverse("set_language"), {"language": "uk", "next": reverse("lobby")})
    assert answer.status_code == 302
    players[0].refresh_from_db()
    assert players[0].language == "uk"
    elsewhere = Client(HTTP_ACCEPT_LANGUAGE="es")  # another device: the account's choice wins
    elsewhere.force_login(players[0])
    assert '<html lang="uk"' in elsewhere.get(reverse("lobby")).content.decode()


@pytest.mark.django_db
def test_how_long_ago_is_said_in_the_language(players):
    session = services.table_create(host=players[0], seats=3)
    GameSession.objects.filter(pk=session.pk).update(created=timezone.now() - timedelta(minutes=3))
    page = Client(HTTP_ACCEPT_LANGUAGE="ru").get(reverse("lobby")).content.decode()
    with translation.override("ru"):
        three_minutes = ngettext("%(num)d minute", "%(num)d minutes", 3) % {"num": 3}
    assert three_minutes != "3 minutes"  # Django's own Russian catalogue says it
    assert three_minutes.replace("\xa0", " ") in page.replace("\xa0", " ")


@pytest.mark.django_db(transaction=True)
def test_each_socket_gets_the_table_in_its_own_players_language(players):
    players[0].language = "sv"
    players[0].save()
    players[1].language = "ru"
    players[1].save()
    session = started_table(players)
    with translation.override("sv"):
        swedish = translation.gettext("Your hand")
    with translation.override("ru"):
        russian = translation.gettext("Your hand")
    assert swedish != russian

    async def first_frames():
        anna, bjorn = await connect(session.pk, players[0]), await connect(session.pk, players[1])
        frames = [" ".join(await frames_until(anna, session.seq)), " ".join(await frames_until(bjorn, session.seq))]
        await anna.disconnect()
        await bjorn.disconnect()
        return frames

    anna, bjorn = asyncio.run(first_frames())
    assert swedish in anna
    assert russian not in anna
    assert russian in bjorn
    assert swedish not in bjorn
