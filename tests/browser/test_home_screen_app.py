"""The site as an app, in Chromium under the site's Content-Security-Policy: the service worker
takes the page over, Chromium finds the site installable and the header offers to install it, a
page asked for without a network is the offline page (holding nothing of the player), the real
page comes back by itself with the network, the cache never holds more than the offline page and
a few static files, and app.js's notifications switch subscribes and unsubscribes as documented.

Chromium has no push service here (a subscription waits forever for one), so the switch's test
stands in for the browser's PushManager and the server's two URLs; the rest is the real thing.
"""

from __future__ import annotations

import base64
import json
import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from .conftest import CHROMIUM, PHONE

CONTROLLED = """() => navigator.serviceWorker.ready.then(() => navigator.serviceWorker.controller ? "yes" :
    new Promise((done) => navigator.serviceWorker.addEventListener("controllerchange", () => done("yes"))))"""
CACHED = """async () => {
    const held = {};
    for (const name of await caches.keys()) {
        held[name] = (await (await caches.open(name)).keys()).map((request) => new URL(request.url).pathname);
    }
    return held;
}"""
SHOTS = os.environ.get("FEMKORT_SCREENSHOTS")  # a folder: save the pictures of the README there
PRECACHE = """() => fetch("/sw.js").then((answer) => answer.text())
    .then((text) => JSON.parse(text.match(/^const CONFIG = (\\{[\\s\\S]*?^\\});$/m)[1]))"""


@pytest.fixture
def installable(browser, site, tmp_path):
    """A Chromium profile on disk: Playwright's usual contexts are incognito windows, where
    Chromium installs no app (installability error "in-incognito") and fires no install prompt."""
    args = ["--no-sandbox"] if os.geteuid() == 0 or os.environ.get("CI") else []
    context = browser.browser_type.launch_persistent_context(
        str(tmp_path / "profile"), executable_path=CHROMIUM, args=args, base_url=site, viewport=PHONE, locale="en-GB"
    )
    yield context
    context.close()


def watched(page) -> list[str]:
    said: list[str] = []
    page.on("console", lambda message: said.append(f"{message.type}: {message.text}"))
    page.on("pageerror", lambda error: said.append(f"error: {error}"))
    return said


def test_the_worker_takes_over_and_chromium_offers_to_install_the_site(installable):
    page = installable.pages[0] if installable.pages else installable.new_page()
    said = watched(page)
    page.goto("/")
    assert page.evaluate(CONTROLLED) == "yes"
    state = page.evaluate("navigator.serviceWorker.ready.then((registration) => registration.active.state)")
    assert state == "activated"
    assert page.evaluate("navigator.serviceWorker.controller.scriptURL").endswith("/sw.js")
    devtools = installable.new_cdp_session(page)
    assert devtools.send("Page.getAppManifest")["errors"] == []
    assert devtools.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
    expect(page.locator("#install-app")).to_be_visible()  # beforeinstallprompt came, and was kept
    if SHOTS:
        page.screenshot(path=str(Path(SHOTS) / "install-phone.png"))
    assert [line for line in said if "Content Security Policy" in line] == []


def test_without_a_network_a_page_is_the_offline_page_until_the_network_is_back(installable):
    page = installable.pages[0] if installable.pages else installable.new_page()
    said = watched(page)
    page.goto("/")
    assert page.evaluate(CONTROLLED) == "yes"
    installable.set_offline(True)
    page.goto("/leaderboard/")
    assert page.url.endswith("/leaderboard/")  # the offline page stands at the address asked for
    expect(page.locator("h1")).to_have_text("You are offline")
    expect(page.locator("main")).to_contain_text("Your tables wait for you")
    # Its style sheet came from the worker's cache: the site's green, not a browser's white.
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(15, 61, 46)"
    installable.set_offline(False)
    expect(page.locator("h1")).to_have_text("Leaderboard")  # app.js asked again by itself
    assert page.url.endswith("/leaderboard/")
    assert [line for line in said if "Content Security Policy" in line] == []


def test_the_cache_holds_no_private_page_and_the_offline_page_no_player(player):
    me = player()
    page = me.page
    assert page.evaluate(CONTROLLED) == "yes"
    for address in ("/accounts/profile/", f"/players/{me.name}/", "/invitations/", "/"):
        page.goto(address)
        expect(page.locator(".site-header nav")).to_contain_text(me.name)
    cached = page.evaluate(CACHED)
    config = page.evaluate(PRECACHE)
    assert list(cached) == [config["cache"]]
    assert cached[config["cache"]] == config["precache"]
    page.context.set_offline(True)
    page.goto(f"/players/{me.name}/")
    expect(page.locator("h1")).to_have_text("You are offline")
    assert me.name not in page.content()
    page.context.set_offline(False)


# What app.js's comment documents, with texts of the test's own.
SWITCH = """<div data-push-switch data-vapid-key="{key}" data-subscribe-url="/push-test/subscribe/"
    data-unsubscribe-url="/push-test/unsubscribe/" data-text-on="ON" data-text-off="OFF" data-text-denied="DENIED"
    data-text-unsupported="UNSUPPORTED" data-text-failed="FAILED">
  <button type="button" data-push-on>On</button><button type="button" data-push-off>Off</button>
  <p data-push-status role="status"></p></div>"""
# The browser's push service, in the page: a subscription that remembers the key it was made with,
# and lasts (in sessionStorage) across the tab's reloads, as a real one does.
FAKE_PUSH = """(() => {
  const made = (key) => ({
    endpoint: "https://push.example/send/1",
    options: { applicationServerKey: new Uint8Array(key).buffer },
    toJSON() { return { endpoint: this.endpoint, expirationTime: null, keys: { p256dh: "BPk", auth: "au" } }; },
    unsubscribe() {
      sessionStorage.removeItem("pushKey");
      window.pushed.subscription = null;
      return Promise.resolve(true);
    },
  });
  const kept = sessionStorage.getItem("pushKey");
  window.pushed = { subscription: kept ? made(JSON.parse(kept)) : null, keys: [] };
  PushManager.prototype.subscribe = function (options) {
    const key = Array.from(options.applicationServerKey);
    window.pushed.keys.push(key);
    sessionStorage.setItem("pushKey", JSON.stringify(key));
    window.pushed.subscription = made(key);
    return Promise.resolve(window.pushed.subscription);
  };
  PushManager.prototype.getSubscription = function () { return Promise.resolve(window.pushed.subscription); };
})()"""
KEY = bytes([4, *range(1, 65)])  # a public key's shape: 0x04 and two 32-byte coordinates


def with_switch(page) -> None:
    """The switch put on the page as Settings will render it, and app.js run again to find it."""
    key = base64.urlsafe_b64encode(KEY).decode().rstrip("=")
    page.evaluate(
        """([markup]) => {
            document.querySelector("main").insertAdjacentHTML("beforeend", markup);
            const again = document.createElement("script");
            again.src = document.querySelector('script[src*="/js/app."]').src;
            document.head.append(again);
        }""",
        [SWITCH.format(key=key)],
    )


@pytest.fixture
def switch_page(browser, site):
    context = browser.new_context(base_url=site, viewport=PHONE, locale="en-GB")
    context.add_init_script(FAKE_PUSH)
    page = context.new_page()
    posted: list[tuple[str, dict, dict]] = []
    answers = {"subscribe": 201, "unsubscribe": 204}

    def server(route, request):
        which = request.url.rstrip("/").rsplit("/", 1)[1]
        posted.append((which, request.post_data_json, request.headers))
        route.fulfill(status=answers[which], body="")

    page.route(re.compile(r".*/push-test/.*"), server)
    yield context, page, posted, answers
    context.close()


def test_the_switch_subscribes_with_the_servers_key_and_tells_the_server(switch_page):
    context, page, posted, _ = switch_page
    context.grant_permissions(["notifications"])
    page.goto("/")
    assert page.evaluate(CONTROLLED) == "yes"
    with_switch(page)
    status, on, off = (
        page.locator("[data-push-status]"),
        page.locator("[data-push-on]"),
        page.locator("[data-push-off]"),
    )
    expect(status).to_have_text("OFF")
    expect(off).to_be_disabled()
    on.click()
    expect(status).to_have_text("ON")
    expect(on).to_be_disabled()
    expect(off).to_be_enabled()
    assert page.evaluate("window.pushed.keys") == [list(KEY)]
    token = json.loads(page.locator("body").get_attribute("hx-headers"))["X-CSRFToken"]
    (which, body, headers), *_ = posted
    assert which == "subscribe"
    assert body == {
        "endpoint": "https://push.example/send/1",
        "expirationTime": None,
        "keys": {"p256dh": "BPk", "auth": "au"},
    }
    assert headers["content-type"] == "application/json"
    assert headers["x-csrftoken"] == token
    page.reload()  # a later visit shows what this browser is
    with_switch(page)
    expect(page.locator("[data-push-status]")).to_have_text("ON")
    expect(page.locator("[data-push-off]")).to_be_enabled()
    assert len(posted) == 1  # and tells the server nothing


def test_the_switch_turns_off_and_says_when_it_cannot_be_on(switch_page):
    context, page, posted, answers = switch_page
    context.grant_permissions(["notifications"])
    page.goto("/")
    assert page.evaluate(CONTROLLED) == "yes"
    answers["subscribe"] = 403  # the server refuses: the browser must not stay subscribed
    with_switch(page)
    page.locator("[data-push-on]").click()
    expect(page.locator("[data-push-status]")).to_have_text("FAILED")
    assert page.evaluate("window.pushed.subscription") is None
    answers["subscribe"] = 201
    page.locator("[data-push-on]").click()
    expect(page.locator("[data-push-status]")).to_have_text("ON")
    page.locator("[data-push-off]").click()
    expect(page.locator("[data-push-status]")).to_have_text("OFF")
    assert page.evaluate("window.pushed.subscription") is None
    assert [(which, body) for which, body, _ in posted][-1] == (
        "unsubscribe",
        {"endpoint": "https://push.example/send/1"},
    )
    expect(page.locator("[data-push-on]")).to_be_enabled()
    expect(page.locator("[data-push-off]")).to_be_disabled()


def test_the_switch_says_so_when_notifications_are_blocked_or_missing(browser, site):
    context = browser.new_context(base_url=site, viewport=PHONE, locale="en-GB")
    page = context.new_page()
    page.goto("/")
    devtools = browser.new_browser_cdp_session()  # the user's "Block", for this context only
    targets = devtools.send("Target.getTargets")["targetInfos"]
    ours = next(target["browserContextId"] for target in targets if target["url"] == page.url)
    permission = {"permission": {"name": "notifications"}, "setting": "denied", "origin": site}
    devtools.send("Browser.setPermission", permission | {"browserContextId": ours})
    with_switch(page)
    expect(page.locator("[data-push-status]")).to_have_text("DENIED")
    expect(page.locator("[data-push-on]")).to_be_disabled()
    expect(page.locator("[data-push-off]")).to_be_disabled()
    context.add_init_script("delete window.PushManager")  # Safari outside a home-screen app
    page.reload()
    with_switch(page)
    expect(page.locator("[data-push-status]")).to_have_text("UNSUPPORTED")
    expect(page.locator("[data-push-on]")).to_be_disabled()
    context.close()
