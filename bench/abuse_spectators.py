"""The spectator-place squat of bench/abuse.py (which runs it, in a process of its own).

``spectator_squat``: one address opens 50 token-less spectator sockets into the honest room and
holds them (reading what they are sent, so none is cut off for falling behind), while other
addresses, one after another, try to watch the same room.  Without a cap per address the 50
fill the room's spectator places (``UNO_SPECTATORS_PER_ROOM``) and everyone else is refused
``too_many_spectators`` (4429); with it the squatter gets ``UNO_SPECTATORS_PER_ADDRESS`` places
(``too_many_watching``, 4430, for the rest) and others still watch.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections import Counter
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

SQUATTER = "127.0.0.40"
SQUAT_SOCKETS = 50
OTHERS = [f"127.0.3.{1 + i}" for i in range(60)]  # each tries once: well within its own opening rate


async def first_frame(url: str, source: str) -> tuple[ClientConnection | None, str]:
    """Open a spectator socket: (the socket if it watches, else None; what its first frame said)."""
    try:
        ws = await connect(url, max_size=2**22, local_addr=(source, 0), open_timeout=10)
    except Exception as err:  # refused at the handshake (HTTP 429, say)
        return None, type(err).__name__
    try:
        frame = json.loads(await asyncio.wait_for(ws.recv(), 10))
    except (ConnectionClosed, TimeoutError) as err:
        await ws.close()
        return None, f"closed {getattr(getattr(err, 'rcvd', None), 'code', None)}"
    if frame.get("type") == "snapshot":
        return ws, "watching"
    await ws.close()
    return None, str(frame.get("code", frame.get("type")))


async def hold(ws: ClientConnection) -> int:
    """Read (and drop) everything the socket is sent until it closes: how many frames."""
    frames = 0
    with contextlib.suppress(ConnectionClosed):
        async for _ in ws:
            frames += 1
    return frames


async def squat(port: int, code: str, seconds: float) -> dict[str, Any]:
    url = f"ws://127.0.0.1:{port}/ws/rooms/{code}"
    deadline = time.monotonic() + seconds
    opened = await asyncio.gather(*(first_frame(url, SQUATTER) for _ in range(SQUAT_SOCKETS)))
    held = [ws for ws, _ in opened if ws is not None]
    readers = [asyncio.create_task(hold(ws)) for ws in held]
    squatter = Counter(what for _, what in opened)
    # Meanwhile, other addresses try to watch, one after another, each for a moment.
    others, tries = Counter[str](), 0
    pause = max(0.05, seconds / len(OTHERS))
    for source in OTHERS:
        if time.monotonic() >= deadline:
            break
        tries += 1
        ws, what = await first_frame(url, source)
        others[what] += 1
        if ws is not None:
            await ws.close()
        await asyncio.sleep(pause)
    await asyncio.sleep(max(0.0, deadline - time.monotonic()))
    still_held = sum(1 for ws in held if ws.state.name == "OPEN")
    for ws in held:
        await ws.close()
    frames = sum(await asyncio.gather(*readers))
    return {"squatter_sockets": SQUAT_SOCKETS, "squatter_outcomes": dict(squatter), "squatter_held_at_end": still_held,
            "squatter_frames_read": frames, "others_tries": tries, "others_outcomes": dict(others),
            "others_could_watch": others.get("watching", 0) > 0,
            "others_refused": tries - others.get("watching", 0)}


def spectator_squat(port: int, code: str, seconds: float) -> dict[str, Any]:
    return asyncio.run(squat(port, code, seconds))
