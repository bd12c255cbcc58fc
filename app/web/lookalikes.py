"""Telling apart players whose names look alike, on the server's pages.

Names are not unique on a server (only within a room: app/rooms/seating.py), and a look-alike
("Victim" with a Cyrillic і) could pass for another player on the leaderboard.  So every player
comes with a ``tag``, a short code from their id that no name can copy, and a list that holds two
names that look alike (app/rooms/lookalike.py) marks those rows ``lookalike``: the pages then
show the tag beside the name, and every avatar's colour comes from the player's id, not the name.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Iterable
from typing import Any

from app.rooms.lookalike import look_keys

TAG_LENGTH = 4


def tag_of(pid: str) -> str:
    """Four characters from the player's id: the same on every page, and different for most players
    (the ids are random; a clash of tags still leaves the avatar's colour and the link apart)."""
    return hashlib.sha256(pid.encode()).hexdigest()[:TAG_LENGTH].upper()


def mark_lookalikes(rows: Iterable[dict[str, Any]], id_key: str = "player") -> None:
    """Give each row with a player its ``tag``, and ``lookalike`` true where another row's player's
    name looks like its own (either skeleton, as written or case-folded, shared)."""
    listed = [row for row in rows if row.get(id_key)]
    keys = {id(row): look_keys(str(row.get("name", ""))) for row in listed}
    players_per_key: Counter[str] = Counter()
    for key in {(k, row[id_key]) for row in listed for k in keys[id(row)]}:
        players_per_key[key[0]] += 1
    for row in listed:
        row["tag"] = tag_of(str(row[id_key]))
        row["lookalike"] = any(players_per_key[k] > 1 for k in keys[id(row)])
