"""Micro-benchmark: what rendering the table's pieces costs for one card, without servers or sockets.

    .venv/bin/python -m tools.bench_pieces [--repeat 300] [--cards 9] [--language en]

On a throw-away SQLite database: a Femkort table of 3 players and 1 computer, played ``--cards``
cards into the first deal. Then, ``--repeat`` times, with every rendered piece forgotten: the
table at the last card is rendered for the three players (their pieces shared, as a process
holds them when a card arrives), then what the next card costs is timed: each player's frame of
changed regions (``table_frame``, as every socket is sent). Also timed: the whole table as a
page shows it (``table_html``, no piece shared), and each frame's size. Prints the mean and
median per card (three frames) in microseconds.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import tempfile
import time


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=300)
    parser.add_argument("--cards", type=int, default=9, help="cards played before the measured one")
    parser.add_argument("--language", default="en")
    args = parser.parse_args()
    before, after = table_at(args.cards)
    from django.utils import translation

    from games import table_html

    frames, pages = [], []
    sizes = []
    with translation.override(args.language):
        for _ in range(args.repeat):
            table_html.forget_all()
            shown = [table_html.table_frame(view, None)[1] for view in before]
            start = time.perf_counter()
            sent = [table_html.table_frame(view, regions)[0] for view, regions in zip(after, shown, strict=True)]
            frames.append(time.perf_counter() - start)
            sizes += [len(frame.encode()) for frame in sent]
            table_html.forget_all()
            start = time.perf_counter()
            table_html.table_html(after[0])
            pages.append(time.perf_counter() - start)
    for name, times in (("a card's three frames", frames), ("a whole table (page)", pages)):
        print(
            f"{name}: mean {statistics.mean(times) * 1e6:.0f} µs, median {statistics.median(times) * 1e6:.0f} µs"
            f" ({args.repeat} times)"
        )
    print(f"frame size: mean {statistics.mean(sizes) / 1024:.2f} KB; seq {after[0].session.seq}, {args.language}")
    return 0


def table_at(cards: int) -> tuple[list, list]:
    """The three players' views of a table after ``cards`` cards and after one more."""
    workdir = tempfile.mkdtemp(prefix="femkort-bench-pieces-")
    os.environ["DATABASE_URL"] = f"sqlite:///{workdir}/bench.sqlite3"
    os.environ["FEMKORT_COMPUTER_PAUSE"] = "0"
    os.environ.pop("REDIS_URL", None)
    os.environ.setdefault("DJANGO_DEBUG", "0")
    os.environ.setdefault("DJANGO_SECRET_KEY", "bench-pieces-" + "x" * 40)
    os.environ.setdefault("DJANGO_ALLOWED_HOSTS", "127.0.0.1")
    os.environ.setdefault("DJANGO_EMAIL_BACKEND", "django.core.mail.backends.locmem.EmailBackend")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "femkort_site.settings")
    import django

    django.setup()
    from django.core.management import call_command

    from accounts.models import User
    from games import services
    from games.models import Seat
    from games.selectors import table_snapshot, table_view
    from games.stored import deal_state

    call_command("migrate", verbosity=0)
    players = [User.objects.create_user(f"bench{n}", password="a-long-bench-password-42") for n in range(3)]
    session = services.table_create(host=players[0], seats=4, options={"target": 1000})
    for user in players[1:]:
        services.seat_take(session_id=session.pk, user=user)
    services.computer_add(session_id=session.pk, user=players[0], position=3)
    session = services.session_start(session_id=session.pk, user=players[0])
    rng = random.Random(7)
    views = []
    for card in range(cards + 1):
        services.computers_play_all(session_id=session.pk, rng=rng)
        session.refresh_from_db()
        snapshot = table_snapshot(session.pk)
        views.append([table_view(snapshot, user) for user in players])
        if card == cards:
            break
        state = deal_state(session.deals.order_by("-number").first())
        user = Seat.objects.get(session=session, position=state.to_act).user
        action = rng.choice(list(state.legal_actions()))
        services.action_take(session_id=session.pk, user=user, action=action, seen_seq=session.seq)
    return views[-2], views[-1]


if __name__ == "__main__":
    raise SystemExit(main())
