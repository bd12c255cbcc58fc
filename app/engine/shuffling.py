"""``shuffle``: ``random.Random.shuffle``'s permutation, from the same random numbers, in half the time.

Dealing shuffles the whole deck every round, and ``Random.shuffle`` calls the Python-level
``_randbelow(i + 1)`` once per card: that was most of a round's set-up.  ``shuffle`` runs the same
loop with ``_randbelow`` inlined — ``getrandbits(k)`` for ``k = (i + 1).bit_length()`` until a
value at most ``i`` comes — so it draws the same numbers, makes the same swaps and leaves the
generator in the same state: every deal, reshuffle and replay stays the same
(tests/engine/test_shuffling.py compares the two).
"""

from __future__ import annotations

import random
from collections.abc import MutableSequence
from typing import Any

# Per i, the bits ``_randbelow(i + 1)`` asks ``getrandbits`` for.
_BITS = tuple((i + 1).bit_length() for i in range(1024))


def shuffle(rng: random.Random, items: MutableSequence[Any]) -> None:
    """Shuffle ``items`` in place exactly as ``rng.shuffle(items)`` would."""
    if len(items) > len(_BITS) or type(rng) is not random.Random:  # beyond the table, or another generator
        rng.shuffle(items)
        return
    getrandbits = rng.getrandbits
    bits = _BITS
    for i in range(len(items) - 1, 0, -1):
        j = getrandbits(bits[i])
        while j > i:  # rejected, as _randbelow rejects it
            j = getrandbits(bits[i])
        items[i], items[j] = items[j], items[i]
