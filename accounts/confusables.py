"""Unicode's confusable "skeleton" (UTS #39, section 4): two names that look alike get the same key.

``PROTOTYPES`` maps each character that looks like another to its prototype (Cyrillic er, U+0440, to
Latin "p", the digit "0" to "O", "m" to "rn", ...). It is read from ``confusables.txt`` beside this file:
the mappings of Unicode's confusables.txt whose source can still occur after NFKC (the names are
NFKC-normalised first, which already folds full-width and mathematical letters), as hex code points,
one mapping a line. To renew it from a newer Unicode release:

    python -m accounts.confusables path/to/confusables.txt > accounts/confusables.txt
"""

from __future__ import annotations

import sys
import unicodedata
from pathlib import Path

TABLE = Path(__file__).with_name("confusables.txt")


def _read(path: Path) -> dict[str, str]:
    prototypes = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            source, target = line.split(";")
            prototypes[chr(int(source, 16))] = "".join(chr(int(code, 16)) for code in target.split())
    return prototypes


PROTOTYPES = _read(TABLE)


def _table_from_unicode(lines: list[str]) -> list[str]:
    """The lines of ``confusables.txt`` (this project's form) from the lines of Unicode's file."""
    header = [line.lstrip("\ufeff").rstrip() for line in lines[:12]]
    header = [line for line in header if line.startswith("#") and line.strip("# ")]
    rows = []
    for line in lines:
        data = line.lstrip("\ufeff").split("#")[0].strip()
        if not data:
            continue
        source, target, _kind = (field.strip() for field in data.split(";"))
        char = chr(int(source, 16))
        if unicodedata.normalize("NFKC", char) == char:  # otherwise NFKC has replaced it already
            rows.append(f"{source};{target}")
    note = (
        "#\n# Made by `python -m accounts.confusables confusables.txt` from the file above: its mappings whose"
        "\n# source survives NFKC, as source;prototype in hex code points."
    )
    return [*header, note, *rows]


if __name__ == "__main__":
    source_lines = Path(sys.argv[1]).read_text(encoding="utf-8").splitlines()
    sys.stdout.write("\n".join(_table_from_unicode(source_lines)) + "\n")
