"""What the room actors need from the outside world, as Protocols.

Persistence is a port so that the actor never knows where records go: the in-memory
store (memory_store.py) serves tests and throwaway servers; the SQL store
(app/persistence) implements the same Protocol.  A match is stored as (config, seed,
action log), which ``engine.replay`` turns back into the identical state.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal, Protocol

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


class Tenancy(Protocol):
    """Which rooms this process serves, when the store is shared (the registry asks, never decides).

    One process alone (``SoleTenancy``) owns every room in its store.  A node of a cluster
    (app/cluster/node.py) owns only the rooms it holds a lease and an epoch for: it brings its
    rooms in itself, as it takes them over, and may lose them to another node at any moment.
    """

    def serving(self) -> bool:
        """Whether this process may act for its rooms now (a lapsed lease: no)."""
        ...

    async def start(self) -> None: ...

    async def stop(self, codes: list[str]) -> None:
        """The server stops; these rooms were stopped here (another node may take them)."""
        ...

    @property
    def restores_at_start(self) -> bool:
        """Whether the registry brings back every unfinished room of the store when it starts."""
        ...

    def may_rebuild(self, code: str) -> bool:
        """A write of this room failed: whether to read it back here (else it is forgotten)."""
        ...

    async def still_ours(self, code: str) -> bool:
        """Whether this room is still this process's to rebuild (checked before each try)."""
        ...

    async def lobby(self, local: Callable[[], list[dict[str, Any]]]) -> list[dict[str, Any]]:
        """The lobby's list: ``local()`` (this process's rooms), or every node's."""
        ...

    def forgotten(self, code: str) -> None:
        """The registry no longer runs this room."""
        ...

    def holder(self, code: str) -> tuple[str, int] | None:
        """Who serves this room and at which epoch (with several nodes; None alone)."""
        ...


class SoleTenancy:
    """One process owns every room its store has: nothing to ask anyone."""

    restores_at_start = True

    def serving(self) -> bool:
        return True

    async def start(self) -> None:
        return None

    async def stop(self, codes: list[str]) -> None:
        return None

    def may_rebuild(self, code: str) -> bool:
        return True

    async def still_ours(self, code: str) -> bool:
        return True

    async def lobby(self, local: Callable[[], list[dict[str, Any]]]) -> list[dict[str, Any]]:
        return local()

    def forgotten(self, code: str) -> None:
        return None

    def holder(self, code: str) -> tuple[str, int] | None:
        return None


@dataclass(frozen=True)
class Rate:
    """At most ``limit`` opened in any ``window`` seconds (per address)."""

    limit: int
    window: float


@dataclass(frozen=True)
class Refusal:
    """Why a ``Holdings.take`` was refused: over the rate (``wait``: seconds until one more would
    be allowed) or at the cap of what one address may hold at once (``wait`` 0)."""

    over: Literal["rate", "cap"]
    wait: float = 0.0


class Holdings(Protocol):
    """What one client address holds at once (game sockets, live rooms), and how fast it opens
    them: limits meant per client, so counted over every process serving the same clients.

    One process alone counts its own (``LocalHoldings``, app/rooms/holdings.py); a node of a
    cluster counts every live node's (app/cluster/holdings.py).  ``kind`` names what is held
    ("sockets", "rooms"); the caller gives back each thing it took, once.
    """

    async def take(self, kind: str, address: str, cap: int, rate: Rate | None = None) -> Refusal | None:
        """Count one more ``kind`` held by ``address`` if it holds fewer than ``cap`` (and, with
        ``rate``, one more opened if that is within it): None when taken, else why not (then
        nothing is held, though an open within its rate still counts against it)."""
        ...

    def give_back(self, kind: str, address: str) -> None:
        """One ``kind`` that ``address`` held is gone."""
        ...

    def held(self, kind: str, address: str) -> int:
        """How many ``kind`` this process counts for ``address`` (its own share)."""
        ...
