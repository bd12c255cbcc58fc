"""What a room refuses, and the close codes it sends sockets.

Kept apart from the actor so that the HTTP and socket layers can raise and read a
``RoomError`` without importing the room machinery itself.
"""

from __future__ import annotations

# Close codes sent to sockets (4000-4999 are the application's own).
CLOSE_REPLACED = 4000  # the same seat connected again
CLOSE_BAD_TOKEN = 4401
CLOSE_REMOVED = 4403  # left the room, or removed by the host
CLOSE_NO_ROOM = 4404
CLOSE_ROOM_CLOSED = 4410
CLOSE_TOO_MANY = 4429  # too many spectators in the room, or sockets from one address
CLOSE_TOO_MANY_WATCHING = 4430  # this address already watches the room with as many sockets as it may
CLOSE_SCREEN_REVOKED = 4431  # a big screen's key is not (or no longer) valid: the host revoked it (screen.py)
CLOSE_GOING_AWAY = 1001  # the server is stopping; the room comes back when it restarts
# The room is being rebuilt from its store (a write failed): reconnect, it is back in a moment.
# Clients treat every code but the 44xx ones above and 4000 as "come back".
CLOSE_RESTARTING = 1012


class RoomError(Exception):
    """A request the room refuses: a machine-readable code, an English message for API users, and
    the ``params`` a client needs to word the refusal itself (names, seats, limits)."""

    def __init__(self, code: str, message: str, status: int = 409, **params: object) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
        self.params: dict[str, object] = params


def room_closed() -> RoomError:
    return RoomError("room_closed", "This room has closed.", 410)


def room_restarting() -> RoomError:
    return RoomError("room_restarting", "This room is restarting; try again in a moment.", 503)
