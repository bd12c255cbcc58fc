"""What the room actors need from the outside world, as Protocols.

Persistence is a port so that the actor never knows where records go: the in-memory
store (memory_store.py) serves tests and throwaway servers; the SQL store
(app/persistence) implements the same Protocol.  A match is stored as (config, seed,
action log), which ``engine.replay`` turns back into the identical state.
"""

from __future__ import annotations

from typing import Any, Protocol

from .records import Record, StoredRoom


class Unstorable(Exception):
    """The store refused a write for what its rows hold (a text the database cannot keep, a value
    out of range): nothing of it was stored, and the same write would be refused again."""


class Store(Protocol):
    """Where rooms keep what must survive a restart (app/persistence/store.py, memory_store.py).

    ``write`` stores all its records or none, and returns once they are durable; the actor
    acknowledges and broadcasts only after that.  A ``write`` that raises stored nothing.
    """

    async def start(self) -> None: ...

    async def stop(self) -> None: ...

    async def write(self, *records: Record, room: str | None = None) -> None:
        """Store these records of one room (``room``: its code, when the caller knows it)."""
        ...

    async def unfinished_rooms(self) -> list[StoredRoom]: ...

    async def load_room(self, code: str) -> StoredRoom | None:
        """One open room as stored (None: unknown or closed): what a rebuild starts from."""
        ...

    async def match_history(self, match_id: str) -> dict[str, Any] | None: ...

    async def match_export(self, match_id: str) -> dict[str, Any] | None:
        """What a match's export is made from (None: unknown): ``id``, ``room``, ``number``,
        ``status``, ``config``, ``players``, ``started_at``, ``finished_at``, ``rounds``
        (``number``, ``commitment``, ``secret`` — the secret only once the match is over) and
        ``actions`` (``seq``, ``round``, ``seat``, ``action``, ``at``; only once it is over)."""
        ...


class Outlet(Protocol):
    """One client socket as the actor sees it: a bounded, non-blocking way to send text.

    ``offer`` never waits: a socket that cannot keep up is closed by its outlet, so one slow
    client never stalls the room (the transport layer implements this).
    """

    def offer(self, text: str) -> bool: ...

    def close(self, code: int, reason: str) -> None: ...
