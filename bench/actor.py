"""The room's own cost per action, without sockets: engine, views, diffs, frames, the store port.

    uv run python bench/actor.py --actions 20000 --runs 5
    uv run python bench/actor.py --chat      # chat lines mid-round instead of moves
    uv run python bench/actor.py --cpu       # CPU time, not wall time: for a busy machine
    uv run python bench/actor.py --acks-apart  # sockets that take a move's ack as a frame of its own
    uv run python bench/actor.py --house chaos --editions classic --cpu  # with and without a preset

One room actor per edition with 4 seats, each seat attached to an outlet that only counts
what it is offered, and taking its acks in patches as the browser does; actions are taken
from the engine's legal moves (outside the timing) and sent as the socket reader sends them.
Printed: microseconds per action (median of the runs) — the part of ``bench/load.py``'s
``server_us_per_action`` that is the game's, not the sockets'.  The last line printed is one
JSON object.

With ``--house PRESET``, each run times the editions' rooms under the preset (HR-34; its options
the edition plays, D-2) and without house rules, one after the other, and ``cost_ratio`` is the room's
cost per action under the preset against without: what a server pays for them, views and frames
included, where ``bench/engine.py``'s ``house_rules`` figure is the rules engine's part alone.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bench.modes import mode  # noqa: E402  (first: it reads --mode, which decides what importing app gives)

# isort: split
from app.config import Settings  # noqa: E402
from app.engine import legal_actions  # noqa: E402
from app.engine.house import PRESETS  # noqa: E402
from app.rooms.actor import RoomActor  # noqa: E402
from app.rooms.commands import command_adapter  # noqa: E402
from app.rooms.inbox import Command  # noqa: E402
from app.rooms.memory_store import InMemoryStore  # noqa: E402
from app.rooms.registry import RoomRegistry  # noqa: E402
from app.rooms.room_state import PLAYING, hash_token  # noqa: E402

EDITIONS = ("classic", "mario_kart", "all_wild", "pocket_pizza")
CLOCK = time.perf_counter  # --cpu: the process's CPU time, which other jobs on the machine move less
ACKS_IN_PATCH = True  # as the browser's sockets: a move's ack in its patch (--acks-apart: an ack frame of its own)


class CountingOutlet:
    def __init__(self) -> None:
        self.frames = 0
        self.chars = 0

    def offer(self, text: str) -> bool:
        self.frames += 1
        self.chars += len(text)
        return True

    def close(self, code: int, reason: str) -> None:
        pass


def command(kind: str, cid: str, payload: dict[str, Any]) -> Any:
    """Validated as the socket reader validates a frame: outside the room, and outside the timing."""
    return command_adapter.validate_python({"type": kind, "id": cid, **payload})


async def send(actor: RoomActor, outlet: CountingOutlet, token: str | None, kind: str, cid: str,
               payload: dict[str, Any], body: Any = None) -> None:
    done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
    actor.tell(Command(outlet, hash_token(token) if token else None, body or command(kind, cid, payload), done))
    await done


async def one_room(registry: RoomRegistry, edition: str, actions: int, rng: random.Random,
                   chat: bool = False, preset: str | None = None) -> tuple[float, int, int]:
    house = None if preset is None else {"preset": preset}  # the room drops what the edition refuses (D-2)
    actor = await registry.create(edition, public=False, max_seats=4, target=None, name=None, house_rules=house)
    seats = [await actor.join(f"p{i}") for i in range(4)]
    outlets = [CountingOutlet() for _ in seats]
    for seat, outlet in zip(seats, outlets, strict=True):
        await actor.attach(outlet, seat["token"], None, acks_in_patch=ACKS_IN_PATCH)
    await send(actor, outlets[0], seats[0]["token"], "start", "s", {})
    spent, done, n = 0.0, 0, 0
    while done < actions:
        st = actor.state
        if st.status != PLAYING:
            for i, seat in enumerate(seats):
                await send(actor, outlets[i], seat["token"], "ready", f"r{n}", {"ready": True})
            if st.status != PLAYING:
                await send(actor, outlets[0], seats[0]["token"], "rematch", f"m{n}", {})
            continue
        assert st.match is not None
        moves = [(s, a) for s in range(4) for a in legal_actions(st.match, s)
                 if a.kind not in ("catch", "declare_uno")]
        seat_no, action = rng.choice(moves)
        n += 1
        body = command("action", f"a{n}", {"action": action.to_json()})
        if chat:  # a change that is not the match's: a chat line from a seat in turn
            seat_no = n % len(seats)
            body = command("chat", f"c{n}", {"text": f"line {n}"})
        started = CLOCK()
        await send(actor, outlets[seat_no], seats[seat_no]["token"], "action", f"a{n}", {}, body)
        spent += CLOCK() - started
        done += 1
    await actor.stop()
    return spent, sum(o.frames for o in outlets), sum(o.chars for o in outlets)


async def run(actions: int, seed: int, chat: bool = False, editions: tuple[str, ...] = EDITIONS,
              preset: str | None = None) -> dict[str, float]:
    settings = Settings(_env_file=None, between_rounds_seconds=3600, database_url="memory://")  # type: ignore[call-arg]
    registry = RoomRegistry(settings, InMemoryStore(), None)
    await registry.start()
    rng = random.Random(seed)
    spent, frames, chars = 0.0, 0, 0
    for edition in editions:
        s, f, c = await one_room(registry, edition, actions // len(editions), rng, chat, preset)
        spent, frames, chars = spent + s, frames + f, chars + c
    await registry.stop()
    return {"us_per_action": spent / actions * 1e6, "frames_per_action": frames / actions,
            "chars_per_frame": chars / max(1, frames)}


def with_and_without(actions: int, seed: int, editions: tuple[str, ...], preset: str) -> dict[str, float]:
    """One run under ``preset`` and one without house rules, one after the other (both see the same load)."""
    house = asyncio.run(run(actions, seed, editions=editions, preset=preset))
    plain = asyncio.run(run(actions, seed, editions=editions))
    return {"plain_us_per_action": plain["us_per_action"], "house_us_per_action": house["us_per_action"],
            "cost_ratio": house["us_per_action"] / plain["us_per_action"],
            "plain_chars_per_frame": plain["chars_per_frame"], "house_chars_per_frame": house["chars_per_frame"]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--actions", type=int, default=20_000)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--chat", action="store_true", help="time chat lines mid-round instead of moves")
    ap.add_argument("--cpu", action="store_true", help="CPU time of this process, not wall time (a busy machine)")
    ap.add_argument("--acks-apart", action="store_true", help="sockets that take acks as frames of their own")
    ap.add_argument("--editions", default=",".join(EDITIONS), help="comma-separated editions (default: all four)")
    ap.add_argument("--house", choices=sorted(PRESETS), help="also without house rules: the preset's cost_ratio")
    args = ap.parse_args()
    editions = tuple(args.editions.split(","))
    global CLOCK, ACKS_IN_PATCH
    if args.cpu:
        CLOCK = time.process_time
    ACKS_IN_PATCH = not args.acks_apart
    if args.house:
        runs = [with_and_without(args.actions, seed, editions, args.house) for seed in range(args.runs)]
    else:
        runs = [asyncio.run(run(args.actions, seed, args.chat, editions)) for seed in range(args.runs)]
    for r in runs:
        print({k: round(v, 2 if k == "cost_ratio" else 1) for k, v in r.items()}, file=sys.stderr)
    print(json.dumps({"mode": mode()}
                     | {k: round(statistics.median(r[k] for r in runs), 2 if k == "cost_ratio" else 1) for k in runs[0]}
                     | {"runs": args.runs}))


if __name__ == "__main__":
    main()
