"""Unicode cleaning for what people type that others see: display names and chat lines.

By Unicode category, not by a list of characters: format characters (Cf: zero-width space, word
joiner, BOM, soft hyphen, bidi marks and overrides, tag characters, ...), surrogates (Cs: a lone
"\\ud800" from a JSON frame, which PostgreSQL cannot store), private-use characters (Co) and
unassigned code points (Cn) are dropped. Exceptions, where text needs them to look right:

- zero-width joiner and non-joiner (U+200D, U+200C) after a virama, as IDNA allows them (RFC 5892,
  appendix A), and between two letters of a script that joins (Arabic, Devanagari, ...; not between
  Latin, Greek or Cyrillic letters, which never need them);
- the joiner between two emoji (U+1F468 U+200D U+1F469: one family), and the tag characters of a
  flag such as England's (U+1F3F4, tag letters, cancel tag);
- unassigned code points in the emoji blocks, which Unicode reserves for pictographs
  (``Extended_Pictographic`` includes them): emoji newer than this Python's Unicode data.
"""

from __future__ import annotations

import unicodedata

ZWNJ, ZWJ = "\u200c", "\u200d"
BLACK_FLAG, CANCEL_TAG = "\U0001f3f4", "\U000e007f"
TAG_SPECS = {chr(code) for code in [*range(0xE0030, 0xE003A), *range(0xE0061, 0xE007B)]}  # tag digits, letters
DROPPED_CATEGORIES = {"Cf", "Cs", "Co", "Cn"}
# Unassigned code points here are reserved for future emoji (Extended_Pictographic in emoji-data.txt).
FUTURE_PICTOGRAPHS = [(0x1F000, 0x1FAFF), (0x1FC00, 0x1FFFD)]
# Scripts whose letters never need a joiner between them (first word of the character's name).
NON_JOINING_SCRIPTS = {"LATIN", "GREEK", "CYRILLIC"}
# Letters and symbols that show nothing (Hangul fillers, Khmer inherent vowels, Braille blank): with
# Cf and the variation selectors, Unicode's Default_Ignorable_Code_Point, plus U+2800.
BLANK_LOOKING = {"\u115f", "\u1160", "\u3164", "\uffa0", "\u17b4", "\u17b5", "\u2800", "\u034f"}
VARIATION_SELECTORS = [(0xFE00, 0xFE0F), (0xE0100, 0xE01EF), (0x180B, 0x180F)]
EMOJI_MODIFIERS = (0x1F3FB, 0x1F3FF)  # skin tones


def _in(char: str, ranges: list[tuple[int, int]]) -> bool:
    return any(low <= ord(char) <= high for low, high in ranges)


def is_variation_selector(char: str) -> bool:
    return _in(char, VARIATION_SELECTORS)


def _emoji(char: str) -> bool:
    return unicodedata.category(char) == "So" or _in(char, FUTURE_PICTOGRAPHS)


def _joining_letter(char: str) -> bool:
    if unicodedata.category(char)[0] not in "LM":
        return False
    return unicodedata.name(char, "").partition(" ")[0] not in NON_JOINING_SCRIPTS


def _joiner_needed(kept: list[str], after: str, joiner: str) -> bool:
    """May ``joiner`` stand between the characters kept so far and ``after``, the next one?"""
    if not kept or not after:
        return False
    previous = kept[-1]
    if unicodedata.combining(previous) == 9:  # a virama: the joiner picks the conjunct's form
        return True
    if _joining_letter(previous) and _joining_letter(after):
        return True
    if joiner == ZWJ:
        base = len(kept) - 1
        while base > 0 and (is_variation_selector(kept[base]) or _in(kept[base], [EMOJI_MODIFIERS])):
            base -= 1
        return _emoji(kept[base]) and _emoji(after)
    return False


def _flag_tags(text: str, start: int) -> int:
    """The length of a flag's tag sequence at ``start`` (just after U+1F3F4), or 0 if there is none."""
    end = start
    while end < len(text) and text[end] in TAG_SPECS and end - start < 6:
        end += 1
    if end > start and end < len(text) and text[end] == CANCEL_TAG:
        return end + 1 - start
    return 0


def _kept_anyway(char: str, category: str, kept: list[str], after: str) -> bool:
    if category == "Cn":
        return _in(char, FUTURE_PICTOGRAPHS)
    return char in (ZWJ, ZWNJ) and _joiner_needed(kept, after, char)


def drop_invisible(text: str) -> str:
    """``text`` without the format, surrogate, private-use and unassigned characters it should not keep."""
    kept: list[str] = []
    index = 0
    while index < len(text):
        char = text[index]
        index += 1
        category = unicodedata.category(char)
        if category not in DROPPED_CATEGORIES:
            kept.append(char)
            if char == BLACK_FLAG and (tags := _flag_tags(text, index)):
                kept.append(text[index : index + tags])
                index += tags
        elif _kept_anyway(char, category, kept, text[index : index + 1]):
            kept.append(char)
    return "".join(kept)


def is_ignorable(char: str) -> bool:
    """Shows nothing by itself: a format character, a variation selector, a filler (whitespace is not)."""
    return unicodedata.category(char) in DROPPED_CATEGORIES or is_variation_selector(char) or char in BLANK_LOOKING


def is_blank(text: str) -> bool:
    """Nothing to see: only whitespace, control, invisible and combining characters."""
    return not any(_visible(char) for char in text)


def _visible(char: str) -> bool:
    if char.isspace() or char in BLANK_LOOKING:
        return False
    category = unicodedata.category(char)
    return category[0] not in "CMZ" or (category == "Cn" and _in(char, FUTURE_PICTOGRAPHS))
