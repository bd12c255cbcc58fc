"""What people type (names, chat) as it is kept and shown to everyone else.

Whitespace runs become one space.  Invisible control and format characters are dropped:
a right-to-left override in a name would reverse how every later word on the line reads
in other players' logs, and zero-width characters would let two names look the same.
The zero-width joiner stays, because emoji sequences (families, flags with modifiers)
are held together by it.
"""

from __future__ import annotations

import unicodedata

_DROPPED = frozenset({"Cc", "Cf", "Cs", "Co"})  # control, format, surrogate, private use
_KEPT = frozenset({"\u200d"})  # zero-width joiner


def clean_text(text: str) -> str:
    text = unicodedata.normalize("NFC", text)
    kept = "".join(ch for ch in text
                   if ch.isspace() or ch in _KEPT or unicodedata.category(ch) not in _DROPPED)
    return " ".join(kept.split())
