"""The view differ against ``jsonpatch.make_patch``, on the views of real games.

    uv run python bench/diff.py --actions 2000

Random 4-seat games of every edition are played through the engine and a room's views
(``room_views.seat_views``); every seat's view before and after each action is diffed by both,
and each patch is checked to turn the old view into the new one.  Printed: microseconds
per seat per action for each differ (median of the runs) and their ratio; the last line is
one JSON object.
"""

from __future__ import annotations

import argparse
import copy
import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import jsonpatch

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.engine import MatchConfig, legal_actions, new_match, start_next_round  # noqa: E402
from app.engine import apply as engine_apply  # noqa: E402
from app.rooms.diff import make_patch  # noqa: E402
from app.rooms.room_state import Player, RoomState  # noqa: E402
from app.rooms.room_views import seat_views  # noqa: E402

EDITIONS = ("classic", "mario_kart", "all_wild", "pocket_pizza")


def view_pairs(actions: int, seed: int) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """(old, new) views of every seat around ``actions`` random actions; deep copies, so the two
    differs see the same independent inputs."""
    rng = random.Random(seed)
    pairs: list[tuple[dict[str, Any], dict[str, Any]]] = []
    per_edition = actions // len(EDITIONS)
    for edition in EDITIONS:
        st = RoomState(code="BENCH", edition=edition, public=False, max_seats=4, target=None, name="bench")
        st.players = [Player(name=f"p{i}", token_hash=str(i), seat=i, connected=True) for i in range(4)]
        st.match, events = new_match(MatchConfig(edition, 4, 10_000), rng.randrange(2**32))
        st.record(events)
        m = st.match
        for _ in range(per_edition):
            if m.phase != "round":
                st.record(start_next_round(m))
            before = copy.deepcopy(seat_views(st, range(4)))
            moves = [(s, a) for s in range(4) for a in legal_actions(m, s)]
            seat, action = rng.choice(moves)
            st.record(engine_apply(m, seat, action))
            after = copy.deepcopy(seat_views(st, range(4)))
            pairs.extend((before[s], after[s]) for s in range(4))
    return pairs


def timed(differ: Any, pairs: list[tuple[dict[str, Any], dict[str, Any]]]) -> float:
    started = time.perf_counter()
    for old, new in pairs:
        differ(old, new)
    return (time.perf_counter() - started) / len(pairs) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--actions", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    pairs = view_pairs(args.actions, args.seed)
    for old, new in pairs[:400]:  # both are correct patches
        assert jsonpatch.apply_patch(old, make_patch(old, new)) == new
        assert jsonpatch.apply_patch(old, jsonpatch.make_patch(old, new).patch) == new
    ours = [timed(make_patch, pairs) for _ in range(args.runs)]
    theirs = [timed(jsonpatch.make_patch, pairs) for _ in range(args.runs)]
    result = {"seat_diffs": len(pairs), "ours_us_per_seat": round(statistics.median(ours), 1),
              "jsonpatch_us_per_seat": round(statistics.median(theirs), 1),
              "ratio": round(statistics.median(theirs) / statistics.median(ours), 1), "runs": args.runs}
    print(f"our differ: {result['ours_us_per_seat']} µs per seat per action; "
          f"jsonpatch.make_patch: {result['jsonpatch_us_per_seat']} µs ({result['ratio']}x)")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
