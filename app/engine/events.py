"""What happened, as data.

Every event is either public (``to`` is None) or private to the seats listed in ``to``
— a drawn card's face goes to its drawer only, a challenged hand to the challenger only.
"""

from __future__ import annotations

from typing import Any, NamedTuple


class Event(NamedTuple):
    kind: str
    data: dict[str, Any]
    to: tuple[int, ...] | None = None

    def visible_to(self, seat: int | None) -> bool:
        return self.to is None or (seat is not None and seat in self.to)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, **self.data}
