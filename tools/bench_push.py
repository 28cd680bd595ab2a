"""Web Push benchmark: how long the site takes to send many "your turn" messages.

    .venv/bin/python -m tools.bench_push [--messages 10000] [--threads 1,8] [--checked 500]

Each message goes the way ``games.webpush.push_send`` sends a turn's notice: encrypted for its own
browser (a new key pair and secret per subscription, as every browser has its own), signed with the
site's VAPID key, posted over one kept-alive connection pool to a local push service on 127.0.0.1
(``tests.push_service``). For each thread count: the wall time for ``--messages`` messages, messages
per second and milliseconds per message; the service only counts them (decrypting is the service's
work, not ours). Then ``--checked`` more with the service decrypting and verifying every one, to show
that what was timed is what a real push service accepts.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from concurrent.futures import ThreadPoolExecutor

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "femkort_site.settings")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=10_000)
    parser.add_argument("--threads", default="1,8")
    parser.add_argument("--checked", type=int, default=500)
    arguments = parser.parse_args()
    django.setup()
    from django.conf import settings

    from games import webpush
    from tests.push_service import PushService, vapid_keys

    private, public = vapid_keys()
    settings.FEMKORT_VAPID_PRIVATE_KEY = private
    webpush.vapid.cache_clear()
    data = json.dumps({"title": "Your turn at Table #12", "body": "Plays by Tue 18:00\nAnna 6 · Bo 4", "url": "/"})
    print(f"{arguments.messages} messages of {len(data)} bytes each, to a local push service")
    for threads in [int(count) for count in arguments.threads.split(",")]:
        with PushService(vapid_public_key=public, decrypt=False) as service:
            browsers = [service.subscribe(f"b{index}").info() for index in range(arguments.messages)]
            took = _send(webpush, browsers, data, threads)
            service.wait_for_count(arguments.messages)
        each = 1000 * took / arguments.messages
        print(f"  {threads} thread(s): {took:.1f} s, {arguments.messages / took:,.0f} messages/s, {each:.2f} ms each")
    with PushService(vapid_public_key=public) as service:
        browsers = [service.subscribe(f"c{index}").info() for index in range(arguments.checked)]
        _send(webpush, browsers, data, 1)
        service.wait_for_count(arguments.checked)
        print(
            f"  checked: {service.count} of {arguments.checked} decrypted and verified, {len(service.failures)} refused"
        )


def _send(webpush, browsers: list[dict], data: str, threads: int) -> float:
    def one(info: dict) -> str:
        keys = info["keys"]
        return webpush.push_send(
            endpoint=info["endpoint"], p256dh=keys["p256dh"], auth=keys["auth"], data=data, ttl=3600
        )

    started = time.perf_counter()
    with ThreadPoolExecutor(max_workers=threads) as pool:
        outcomes = list(pool.map(one, browsers))
    took = time.perf_counter() - started
    failed = sum(outcome != "sent" for outcome in outcomes)
    if failed:
        raise SystemExit(f"{failed} messages were not sent")
    return took


if __name__ == "__main__":
    main()
