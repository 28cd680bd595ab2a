"""What a player does in the browser, in the site's own words (sign up, open a table, play)."""

from __future__ import annotations

import re
import time
from dataclasses import dataclass

from playwright.sync_api import BrowserContext, Page, expect

PASSWORD = "a-long-browser-password-42"
WAIT_MS = 15_000


@dataclass
class Player:
    name: str
    page: Page

    @classmethod
    def sign_up(cls, context: BrowserContext, name: str) -> Player:
        page = context.new_page()
        page.set_default_timeout(WAIT_MS)
        page.goto("/accounts/signup/")
        page.fill("#id_username", name)
        page.fill("#id_email", f"{name}@example.org")
        page.fill("#id_password1", PASSWORD)
        page.fill("#id_password2", PASSWORD)
        page.locator("form.stacked button[type=submit]").click()
        expect(page.locator(".site-header nav")).to_contain_text(name)  # signed in, in any language
        return cls(name, page)

    def open_table(self, *, game: str = "femkort", seats: int = 4, clock: str = "0", **options: str | bool) -> str:
        """A new table from the lobby's form; returns its address."""
        self.page.goto(f"/?game={game}")
        if self.page.locator("#id_seats[type=number]").count():  # a game for one number of players has no choice
            self.page.fill("#id_seats", str(seats))
        elif self.page.locator("select#id_seats").count():  # a game of some table sizes only (2, 4 or 6)
            self.page.select_option("#id_seats", str(seats))
        self.page.select_option("#id_turn_seconds", clock)
        for name, value in options.items():
            if isinstance(value, bool):  # a checkbox
                self.page.set_checked(f"#id_{name}", value)
            elif self.page.locator(f"select#id_{name}").count():  # a choice (points to win)
                self.page.select_option(f"#id_{name}", value)
            else:
                self.page.fill(f"#id_{name}", value)
        self.page.locator("form.stacked button[type=submit]").click()
        self.page.wait_for_url(re.compile(r"/tables/\d+/$"))
        self.live()
        return self.page.url

    def live(self) -> None:
        """The table's websocket is open (the 'paused' notice hides once it is)."""
        self.page.wait_for_selector("body[data-live=yes]", state="attached")

    def add_computers(self, count: int, level: str = "medium") -> None:
        """Fill ``count`` empty seats with computers, one named seat at a time.

        Seats are picked by position, never by counting forms: a frame the socket sent before
        the last click may still arrive after its answer and show a filled seat empty again for
        a moment (the newer frame follows), so each seat is waited for until it shows filled."""
        filled: list[str] = []
        for _ in range(count):
            empty = self.page.locator(".seat.empty:has(form.add-computer)").evaluate_all(
                "(seats) => seats.map((seat) => seat.dataset.seat)"
            )
            position = next(seat for seat in empty if seat not in filled)
            seat = self.page.locator(f'.seat[data-seat="{position}"]')
            seat.locator("form.add-computer select").select_option(level)
            seat.locator("form.add-computer button[type=submit]").click()
            expect(seat).not_to_have_class(re.compile(r"\bempty\b"))
            filled.append(position)

    def against_computers(self, *, game: str, seats: int, clock: str = "0", **options: str) -> None:
        """Open a table of ``game``, fill every other seat with a computer and start."""
        self.open_table(game=game, seats=seats, clock=clock, **options)
        self.add_computers(seats - 1)
        self.start()

    def start(self) -> None:
        self.page.locator("form.start button[type=submit]").click()
        expect(self.page.locator(".felt")).to_be_visible()

    def sit_at(self, url: str, position: int | None = None, *, host: Player | None = None) -> None:
        """Take a seat at ``url``; with ``host``, also wait until the host's page shows it taken
        (else the host may pick that seat for a computer from a page that does not know yet)."""
        self.page.goto(url)
        self.live()
        seat = ".seat.empty" if position is None else f'.seat.empty[data-seat="{position}"]'
        self.page.locator(f"{seat} form:not(.add-computer) button[type=submit]").first.click()
        expect(self.page.locator(f".seat:has-text('{self.name}')")).to_be_visible()
        if host is not None:
            expect(host.page.locator(f".seat:has-text('{self.name}')")).to_be_visible()

    def wait_for_turn(self, timeout: int = WAIT_MS) -> None:
        self.page.wait_for_selector("#table[data-my-turn]", timeout=timeout)

    def until_choices(self, wanted: str = ".choices button", timeout: int = 90_000) -> None:
        """Play on at each of this player's turns until a turn offers ``wanted`` (any bid or call by
        default; in Euchre a computer may order up before this player is asked). Other calls on
        the way are passed where one may pass."""
        while True:
            self.page.wait_for_selector("#table[data-my-turn]", timeout=timeout)
            if self.page.locator(wanted).count():
                return
            passing = self.page.locator(".choices button[data-action=pass]")
            if passing.count():
                self._click(passing, "data-action")
            else:
                self.play_a_card()

    def playable(self):
        """What this player may act with now: a bid or call, a card, or the draw's button."""
        return self.page.locator(".choices button, .hand button.card:not([aria-disabled=true]), .hand .mark-done")

    def play_a_card(self) -> str:
        """Click the first card the rules allow, or in an auction the first button that is not a
        pass (the lowest bid, ordering up, going alone); returns the card or action."""
        choices = self.page.locator(".choices button")
        if choices.count():
            bolder = self.page.locator(".choices button:not([data-action=pass])")
            return self._click(bolder.first if bolder.count() else choices.first, "data-action")
        draw = self.page.locator(".hand .mark-done")
        if draw.count():  # the draw: mark the first card to discard, then draw
            self.page.locator(".hand label.card").first.click()
            return self._click(draw, "data-action")
        return self._click(self.playable().first, "data-card")

    def _click(self, card, attribute: str) -> str:
        name = card.get_attribute(attribute) or ""
        seq = self.page.locator("#table").get_attribute("data-seq")
        card.click()
        self.page.wait_for_selector(f"#table:not([data-seq='{seq}'])", state="attached")
        return name

    def play_until_finished(self, timeout: int = 90_000) -> None:
        """Play whatever is allowed whenever it is this player's turn, until the session ends."""
        finished = self.page.locator(".result")
        self.page.wait_for_selector("#table[data-my-turn], .result", timeout=timeout)
        while not finished.count():
            if self.page.locator("#table[data-my-turn]").count() and self.playable().count():
                self.play_a_card()
            self.page.wait_for_selector("#table[data-my-turn], .result", timeout=timeout)


def play_together(players: list[Player], check=None, minutes: float = 5) -> None:
    """Everyone plays whatever is allowed on their turn until every page shows the result;
    ``check`` runs before each turn is played (so it sees what the mover saw: an upcard the mover
    then orders up is on show at that moment, whatever the computers' pace) and after each round
    of turns. A table that stalls fails the test, saying where."""
    deadline = time.monotonic() + minutes * 60
    while not all(someone.page.locator(".result").count() for someone in players):
        if time.monotonic() > deadline:
            pages = "\n---\n".join(someone.page.locator("#table").inner_text() for someone in players)
            raise AssertionError(f"the session did not end within {minutes} minutes:\n{pages}")
        for someone in players:
            if someone.page.locator("#table[data-my-turn]").count() and someone.playable().count():
                if check is not None:
                    check()
                someone.play_a_card()
        players[0].page.wait_for_timeout(50)
        if check is not None:
            check()
