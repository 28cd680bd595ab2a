"""Nobody passes for another player or a computer with letters that only look alike, and no name is blank.

Cyrillic and Latin letters are written with escapes here, so the test says which is which.
"""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation

from accounts import names
from accounts.models import User

pytestmark = pytest.mark.django_db
PASSWORD = "a-long-test-password-42"
LOOKS_LIKE = "That name looks too much like another player&#x27;s name"
RESERVED = "That name belongs to the computer players."
BLANK = "A name needs at least one visible letter, digit or sign."
CYRILLIC_ER, CYRILLIC_ES, CYRILLIC_A, CYRILLIC_IE = "\u0440", "\u0441", "\u0430", "\u0435"


def profile_says(client, user, display_name: str) -> str:
    client.force_login(user)
    response = client.post(reverse("profile"), {"display_name": display_name, "email": ""})
    user.refresh_from_db()
    return response.text


def signup(client, username: str, display_name: str = ""):
    return client.post(
        reverse("signup"),
        {
            "username": username,
            "display_name": display_name,
            "email": f"{len(username)}-{ord(username[0])}@example.com",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )


@pytest.mark.parametrize(
    ("existing", "typed"),
    [
        ({"username": "p1"}, f"{CYRILLIC_ER}1"),  # a Cyrillic er beside the username p1
        ({"username": "p1"}, "P1"),  # the other case is still the username: said as before
        ({"username": "x", "display_name": "Paul"}, f"\u0420{CYRILLIC_A}ul"),  # Cyrillic capital er and a
        ({"username": "x", "display_name": "BOB"}, "B0B"),  # a digit for a letter
        ({"username": "x", "display_name": "Ilse"}, "llse"),  # capital i and small L
        ({"username": "x", "display_name": "Sam"}, "Sarn"),  # r n for m
        ({"username": "x", "display_name": "Åsa"}, "\u00c5SA"),  # case beyond ASCII, on SQLite too
    ],
)
def test_a_display_name_that_looks_like_another_players_name_is_refused(client, make_user, existing, typed):
    make_user(**existing)
    bo = make_user("bo")
    text = profile_says(client, bo, typed)
    assert any(
        refusal in text
        for refusal in [LOOKS_LIKE, "That is another player&#x27;s username.", "Another player already goes by"]
    )
    assert bo.display_name == ""


def test_a_lookalike_gets_the_lookalike_message_and_a_name_in_other_case_the_old_ones(client, make_user):
    make_user("p1", display_name="Queen")
    bo = make_user("bo")
    assert LOOKS_LIKE in profile_says(client, bo, f"{CYRILLIC_ER}1")
    assert LOOKS_LIKE in profile_says(client, bo, f"Qu{CYRILLIC_IE}{CYRILLIC_IE}n")
    assert "That is another player&#x27;s username." in profile_says(client, bo, "P1")
    assert "Another player already goes by that name" in profile_says(client, bo, "QUEEN")


def test_a_new_username_that_looks_like_another_players_name_is_refused(client, make_user):
    make_user("p1", display_name="Queen")
    for username in [f"{CYRILLIC_ER}1", f"Qu{CYRILLIC_IE}en", "pl"]:
        assert LOOKS_LIKE in signup(client, username).text
    make_user("queenanna2")
    assert LOOKS_LIKE in signup(client, "QueenAnna2".replace("a", CYRILLIC_A)).text
    assert User.objects.count() == 2


def test_your_own_username_in_other_letters_is_fine_as_your_display_name(client, make_user):
    p1 = make_user("p1")
    client.force_login(p1)
    assert client.post(reverse("profile"), {"display_name": f"{CYRILLIC_ER}1", "email": ""}).status_code == 302


@pytest.mark.parametrize(
    "name",
    [
        f"Cleo ({CYRILLIC_ES}omputer, medium)",  # a Cyrillic es
        f"{CYRILLIC_ES.upper()}leo",
        "Hug0",
        "Astrid (\u043a\u043e\u043c\u043f\u044c\u044e\u0442\u0435\u0440, \u0441\u0440\u0435\u0434\u043d\u0438\u0439)",
        "\u041a\u043e\u043c\u043f\u044c\u044e\u0442\u0435\u0440 (\u043b\u0451\u0433\u043a\u0438\u0439)",  # Russian
        "Ordenador (f\u00e1cil)",  # the leaderboard's label in Spanish
        "Dag (dator, stark)",
        "Me (C\u041eMPUTER)",  # a Cyrillic capital O
    ],
)
def test_names_that_read_as_a_computers_are_refused_in_any_language_and_any_letters(client, make_user, name):
    assert RESERVED in profile_says(client, make_user("anna"), name)


@pytest.mark.parametrize("username", [f"{CYRILLIC_ES.upper()}leo", "Hug0", "ASTRlD", "b1rger"])
def test_usernames_that_read_as_a_computers_name_are_refused(client, username):
    assert RESERVED in signup(client, username).text
    assert not User.objects.exists()


@pytest.mark.parametrize("typed", ["\u200b", "\u3164", "\u0301", "\u200d\u200d", "\u2800", "\ufe0f \u034f", "\u115f"])
def test_a_display_name_with_nothing_to_see_is_refused(client, make_user, typed):
    anna = make_user("anna", display_name="Anna K")
    assert BLANK in profile_says(client, anna, typed)
    assert anna.display_name == "Anna K"


def test_an_empty_display_name_still_means_none(client, make_user):
    anna = make_user("anna", display_name="Anna K")
    client.force_login(anna)
    assert client.post(reverse("profile"), {"display_name": "   ", "email": ""}).status_code == 302
    anna.refresh_from_db()
    assert anna.name == "anna"


def test_a_username_with_nothing_to_see_is_refused(client):
    assert BLANK in signup(client, "\u3164\u3164").text
    assert not User.objects.exists()


def test_refusals_are_in_the_players_language(client, make_user):
    make_user("p1")
    bo = make_user("bo", language="ru")
    with translation.override("en"):  # the requests switch this thread to Russian; switch back after
        text = profile_says(client, bo, f"{CYRILLIC_ER}1")
        assert LOOKS_LIKE not in text
        assert "\u043f\u043e\u0445\u043e\u0436\u0435" in text  # "похоже"
        assert BLANK not in profile_says(client, bo, "\u200b")


def test_one_query_compares_a_name_with_every_player(make_user):
    for number in range(20):
        make_user(f"player{number}", display_name=f"Player Number {number}")
    with CaptureQueriesContext(connection) as queries:
        names.validate_display_name("Someone New", None)
        with pytest.raises(names.ValidationError):
            names.validate_display_name(f"{CYRILLIC_ER}layer Number 7", None)
    assert len(queries) == 2
    assert all("skeleton" in query["sql"] for query in queries)


def test_skeletons_follow_every_save(make_user):
    anna = make_user("anna")
    assert anna.username_skeleton == names.skeleton("anna")
    assert anna.display_name_skeleton == ""
    anna.display_name = "Queen"
    anna.save(update_fields=["display_name"])
    assert User.objects.filter(display_name_skeleton=names.skeleton(f"Qu{CYRILLIC_IE}en")).get() == anna


@pytest.mark.parametrize(
    ("one", "other"),
    [("p1", f"{CYRILLIC_ER}1"), ("PAUL", f"{CYRILLIC_ER}{CYRILLIC_A}ul"), ("Kate", "\u041aate"), ("m", "rn")],
)
def test_lookalikes_share_a_skeleton(one, other):
    assert names.skeleton(one) == names.skeleton(other)


@pytest.mark.parametrize(("one", "other"), [("Asa", "\u00c5sa"), ("Ivan", "Inan"), ("Anna", "Anna B"), ("ian", "Ian")])
def test_names_that_look_different_keep_their_own_skeletons(one, other):
    assert names.skeleton(one) != names.skeleton(other)
