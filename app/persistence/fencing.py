"""Fencing: a store shared by several nodes commits a room's writes only under the room's current epoch.

The epochs are the cluster's to hand out (app/cluster/ownership.py: a node takes a room and its
epoch is raised); the store only checks them, in each write's own transaction
(app/persistence/store.py).  So these types live here, with the store that enforces them.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Fence:
    """The epochs this node holds, by room: the store refuses a write for any other epoch."""

    node: str
    epochs: dict[str, int] = field(default_factory=dict)


class Fenced(Exception):
    """A write for a room this node no longer owns: nothing of it was stored."""

    def __init__(self, code: str) -> None:
        super().__init__(f"room {code} belongs to another node now")
        self.code = code
