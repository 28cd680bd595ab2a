"""Django's ``makemessages``, also reading the engine's ``ngettext_noop`` (a message with a plural)
and ``pgettext_noop`` (a message in a context), marked where the engine has no Django to translate it,
and the Jinja2 templates (``templates/jinja2/``, the live table's pieces): Django's own reading of a
template knows only its own template language, so each of those is read by Jinja2's extractor
(``_()``, ``gettext``, ``ngettext``, ``pgettext`` and ``{% trans %}``) and handed to xgettext as
Python calls, each on its template's line."""

import os

from django.core.management.commands import makemessages
from jinja2 import Environment

JINJA_DIR = f"{os.sep}jinja2{os.sep}"


def jinja_messages(source: str) -> str:
    """``source``'s messages as Python calls that xgettext reads, on the lines they are on."""
    lines = [""] * (source.count("\n") + 1)
    for lineno, function, message in Environment(extensions=["jinja2.ext.i18n"]).extract_translations(source):
        strings = [message] if isinstance(message, str) else [part for part in message if part is not None]
        lines[lineno - 1] += f"{function}({', '.join(map(repr, strings))}); "
    return "\n".join(lines)


class BuildFile(makemessages.BuildFile):
    def preprocess(self):
        if self.domain != "django" or JINJA_DIR not in self.path:
            return super().preprocess()
        with open(self.path, encoding="utf-8") as source, open(self.work_path, "w", encoding="utf-8") as calls:
            calls.write(jinja_messages(source.read()))


class Command(makemessages.Command):
    build_file_class = BuildFile
    xgettext_options = [
        *makemessages.Command.xgettext_options,
        "--keyword=ngettext_noop:1,2",
        "--keyword=pgettext_noop:1c,2",
    ]
