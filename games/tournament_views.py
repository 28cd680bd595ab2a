"""Tournament pages: the lists and the form to open one, an event's page with its standings and
tables, entering, pausing, withdrawing and the standings' export. Thin over ``services`` and
``tournament_pages``."""

from __future__ import annotations

import functools
from collections.abc import Callable
from datetime import timedelta

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from . import services
from . import tournament_pages as pages
from .access import admit_tournament, admitted_tournaments, code_tried, findable, found_page, normal_code, refused_page
from .engine import GAMES
from .models import PACES, Tournament, TournamentEntry
from .services import tournaments

STARTS_NAMES = {
    0: gettext_lazy("now"),
    5 * 60: gettext_lazy("in 5 minutes"),
    15 * 60: gettext_lazy("in 15 minutes"),
    3600: gettext_lazy("in 1 hour"),
    24 * 3600: gettext_lazy("in 1 day"),
}


class TournamentForm(forms.Form):
    kind = forms.ChoiceField(label=gettext_lazy("Kind"), choices=Tournament.Kind.choices)
    game = forms.ChoiceField(label=gettext_lazy("Game"), choices=())
    minutes = forms.TypedChoiceField(
        label=gettext_lazy("Arena length (minutes)"),
        coerce=int,
        initial=30,
        choices=[(n, str(n)) for n in tournaments.ARENA_MINUTES],
    )
    rounds = forms.TypedChoiceField(
        label=gettext_lazy("Swiss rounds"),
        coerce=int,
        initial=3,
        choices=[(n, str(n)) for n in tournaments.SWISS_ROUNDS],
    )
    deals = forms.TypedChoiceField(
        label=gettext_lazy("Deals at each table"),
        coerce=int,
        initial=0,
        choices=[(0, gettext_lazy("a whole session"))] + [(n, str(n)) for n in tournaments.TABLE_DEALS if n],
    )
    pace_seconds = forms.TypedChoiceField(label=gettext_lazy("Pace (Swiss)"), coerce=int, initial=0, choices=PACES)
    starts_in = forms.TypedChoiceField(
        label=gettext_lazy("Starts"), coerce=int, choices=[(s, STARTS_NAMES[s]) for s in tournaments.STARTS_IN]
    )
    duplicate = forms.BooleanField(
        label=gettext_lazy("Duplicate (Swiss): every table of a round plays the same deals"), required=False
    )
    name = forms.CharField(label=gettext_lazy("Name"), max_length=60, required=False)
    unlisted = forms.BooleanField(label=gettext_lazy("Private (joined by its code)"), required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["game"].choices = [(name, _(rules.title)) for name, rules in GAMES.items() if rules.on_site]


@require_http_methods(["GET", "POST"])
def tournaments_page(request: HttpRequest) -> HttpResponse:
    form = TournamentForm(request.POST or None)
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect("login")
        if form.is_valid():
            data = dict(form.cleaned_data)
            arena = data["kind"] == Tournament.Kind.ARENA
            try:
                tournament = services.tournament_create(
                    user=request.user,
                    kind=data["kind"],
                    game=data["game"],
                    starts=tournaments.tournament_now() + timedelta(seconds=data["starts_in"]),
                    minutes=data["minutes"] if arena else 0,
                    rounds=0 if arena else data["rounds"],
                    deals=data["deals"],
                    pace_seconds=0 if arena else data["pace_seconds"],
                    name=data["name"],
                    unlisted=data["unlisted"],
                    duplicate=data["duplicate"] and not arena,
                )
            except services.TableError as refused:
                form.add_error(None, refused.message)
            else:
                return redirect(_url(tournament))
    context = {"form": form, **pages.listed()}
    return render(request, "games/tournaments.html", context, status=400 if form.errors else 200)


def _found(request: HttpRequest, tournament_id: int) -> Tournament:
    """A tournament anyone may find, a private one as ``access.findable`` says; a browser that showed
    its code is admitted from then on (its page's polls count no more tries)."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    if findable(
        request,
        tournament,
        lambda user: TournamentEntry.objects.filter(tournament=tournament, user=user).exists(),
        admitted_tournaments(request.session),
        lambda: admit_tournament(request.session, tournament),
    ):
        return tournament
    raise Http404("No such tournament.")


visible = found_page(_found)


@require_safe
@visible
def tournament_page(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    entry = (
        TournamentEntry.objects.filter(tournament=tournament, user=request.user).first()
        if request.user.is_authenticated
        else None
    )
    context = {
        "tournament": tournament,
        "entry": entry,
        "standings": pages.standings(tournament, request.user),
        "tables": pages.tables_in_play(tournament),
        "mine": pages.my_table(tournament, request.user),
        "ends": pages.ends_at(tournament),
        "phase": pages.status_now(tournament),
        "now": tournaments.tournament_now(),
        "pace": dict(PACES).get(tournament.pace_seconds, ""),
    }
    return render(request, "games/tournament.html", context)


@require_safe
@visible
def tournament_standings(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The standings alone, fetched again every 2 s by the page while it runs: 204 (nothing to swap)
    while ``v``, the version the page shows, is still current."""
    if request.GET.get("v") == str(tournament.version):
        return HttpResponse(status=204)
    context = {
        "tournament": tournament,
        "standings": pages.standings(tournament, request.user),
        "tables": pages.tables_in_play(tournament),
        "mine": pages.my_table(tournament, request.user),
    }
    return render(request, "games/_tournament_standings.html", context)


@require_safe
@visible
def tournament_export(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    response = JsonResponse(pages.export(tournament))
    response["Content-Disposition"] = f'attachment; filename="femkort-event-tournament-{tournament.pk}.json"'
    return response


def _acted(call: Callable[..., object]) -> Callable[..., HttpResponse]:
    @login_required
    @require_POST
    @visible
    @functools.wraps(call)
    def act(request: HttpRequest, tournament: Tournament) -> HttpResponse:
        try:
            call(request, tournament)
        except services.TableError as refused:
            messages.error(request, refused.message)
        return redirect(_url(tournament))

    return act


@_acted
def tournament_join(request: HttpRequest, tournament: Tournament) -> None:
    services.tournament_join(user=request.user, tournament_id=tournament.pk)


@_acted
def tournament_pause(request: HttpRequest, tournament: Tournament) -> None:
    services.tournament_pause(user=request.user, tournament_id=tournament.pk, paused=True)


@_acted
def tournament_withdraw(request: HttpRequest, tournament: Tournament) -> None:
    services.tournament_withdraw(user=request.user, tournament_id=tournament.pk)


@require_safe
def tournament_by_code(request: HttpRequest) -> HttpResponse:
    code = normal_code(request.GET.get("code") or "")
    if not code:
        return redirect("tournaments")
    try:
        code_tried(user=request.user, client=request.META.get("REMOTE_ADDR"))
    except services.TableError as refused:
        return refused_page(request, refused.message, status=429)
    tournament = Tournament.objects.filter(code=code).first()
    if tournament is None:
        messages.error(request, _("No tournament has that code."))
        return redirect("tournaments")
    return redirect(_url(tournament))


def _url(tournament: Tournament) -> str:
    link = reverse("tournament", args=[tournament.pk])
    return f"{link}?code={tournament.code}" if tournament.unlisted and tournament.code else link
