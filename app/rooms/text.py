"""What people type (names, chat) as it is kept and shown to everyone else.

Whitespace runs become one space.  Invisible control and format characters are dropped:
a right-to-left override in a name would reverse how every later word on the line reads
in other players' logs, and zero-width characters would let two names look the same.
The zero-width joiner stays, because emoji sequences (families, flags with modifiers)
are held together by it.

Characters that draw nothing but are letters or marks to Unicode go too: the Hangul fillers
and the blank Braille pattern ("Victim" followed by U+3164 looks exactly like "Victim"), and
the other default-ignorable marks (the combining grapheme joiner, Mongolian free variation
selectors).  A variation selector stays only right after a character it can vary (a symbol's
emoji or text form, a CJK ideograph's variant), once: letters of the alphabets below U+1000
(Latin, Greek, Cyrillic, Hebrew, Arabic, Indic...) have none, so one there is stray.  A
combining mark stays only on a character, at most ``MAX_MARKS`` deep (every script's ordinary
stacks fit; a tower of marks that spills over the lines around it does not).
"""

from __future__ import annotations

import unicodedata

_DROPPED = frozenset({"Cc", "Cf", "Cs", "Co"})  # control, format, surrogate, private use
_KEPT = frozenset({"\u200d"})  # zero-width joiner
# Blank glyphs that Unicode counts as letters or symbols, and default-ignorable marks.
_BLANK = frozenset({"\u115f", "\u1160", "\u3164", "\uffa0", "\u2800", "\u034f", "\u17b4", "\u17b5",
                    "\u180b", "\u180c", "\u180d", "\u180f"})
_MARKS = frozenset({"Mn", "Mc", "Me"})
MAX_MARKS = 3  # combining marks on one character (Vietnamese and Indic stacks take two or three)


def _is_selector(ch: str) -> bool:
    code = ord(ch)
    return 0xFE00 <= code <= 0xFE0F or 0xE0100 <= code <= 0xE01EF


def _no_variants(ch: str) -> bool:
    return ord(ch) < 0x1000 and unicodedata.category(ch).startswith("L")


def _visible(text: str) -> str:
    """``text`` without blank letters and without marks or selectors that belong to no character."""
    out: list[str] = []
    marks = -1  # marks on the last kept character; -1: there is none to put one on
    selected = True  # whether the last kept character takes no (further) variation selector
    for ch in text:
        if ch in _BLANK:
            continue
        if _is_selector(ch):
            if not selected and marks == 0:
                out.append(ch)
                selected = True
            continue
        if unicodedata.category(ch) in _MARKS:
            if 0 <= marks < MAX_MARKS:
                out.append(ch)
                marks += 1
            continue
        out.append(ch)
        base = not ch.isspace() and ch not in _KEPT
        marks, selected = (0 if base else -1), not base or _no_variants(ch)
    return "".join(out)


def clean_text(text: str) -> str:
    text = unicodedata.normalize("NFC", text)
    kept = "".join(ch for ch in text
                   if ch.isspace() or ch in _KEPT or unicodedata.category(ch) not in _DROPPED)
    return " ".join(_visible(kept).split())
