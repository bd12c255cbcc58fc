"""Parts of views kept from one build to the next while what they show is unchanged.

Views are rebuilt after every change and diffed against the last ones sent (one diff per
seat).  A part rebuilt with equal content is a new object, and the differ must compare it
deeply — for every seat, at every level above it.  A part taken from here is the *same*
object as last time, so the differ passes it with one identity check.  Parts are read-only,
like everything in a view.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, TypeVar

T = TypeVar("T")


class ViewParts:
    __slots__ = ("_held",)

    def __init__(self) -> None:
        self._held: dict[Hashable, tuple[object, Hashable, Any]] = {}

    def get(self, name: Hashable, key: Hashable, build: Callable[[], T], owner: object = None) -> T:
        """The part ``name`` as last built, if it was built for this ``owner`` (compared by
        identity: a new match is never mistaken for the last one) and an equal ``key``."""
        held = self._held.get(name)
        if held is not None and held[0] is owner and held[1] == key:
            value: T = held[2]
            return value
        value = build()
        self._held[name] = (owner, key, value)
        return value
