"""Django's ``makemessages``, also reading the engine's ``ngettext_noop`` (a message with a plural)
and ``pgettext_noop`` (a message in a context), marked where the engine has no Django to translate it."""

from django.core.management.commands import makemessages


class Command(makemessages.Command):
    xgettext_options = [
        *makemessages.Command.xgettext_options,
        "--keyword=ngettext_noop:1,2",
        "--keyword=pgettext_noop:1c,2",
    ]
