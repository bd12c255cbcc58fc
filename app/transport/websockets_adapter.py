"""The one module that reaches into websockets' private parts (uvicorn's are in uvicorn_adapter.py).

uvicorn's WebSocket protocol holds a websockets ``ServerProtocol`` (sans-I/O) and never tells it
that the stream has ended when a connection drops.  Its parser — a suspended generator that
holds the protocol — and the protocol then form a reference cycle that only the garbage
collector can free (about 50 KB a connection).  ``receive_eof`` is public, but after it the
parser still waits (to discard what might follow), and the error it kept holds a traceback of
the protocol too: websockets has no public way to end either.  What this needs, and why:

- ``Protocol.parser`` (the generator): closed, so it ends and lets go of the protocol;
- ``Protocol.parser_exc`` (the error it kept): dropped, so its traceback does not hold it either.

tests/transport/test_uvicorn_internals.py checks both on a live socket; scripts/canary.sh runs
that check against websockets' newest release.
"""

from __future__ import annotations

import contextlib

from websockets.server import ServerProtocol


def end_parser(conn: ServerProtocol) -> None:
    """The connection is gone: end the parser, so reference counting frees it all at once."""
    with contextlib.suppress(Exception):  # idempotent; a parser already finished has nothing to end
        conn.receive_eof()
    conn.parser.close()
    conn.parser_exc = None
