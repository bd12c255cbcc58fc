"""Frame sizes under a hoarding seat (HR-8 batches): what one seat's view weighs when its hand holds
many cards of one number.

    uv run python bench/batch_frames.py [--runs 7]

Two stacked tables, built through a room's own views (``room_views.seat_views``), differ and encoder:

- ``sevens``: classic, 10 seats, Seven-O with a chosen target (HR-7's default) and ``multi_play``;
  seat 0 holds all 8 sevens and two more cards on a red 9, so its red 7s may lead a batch of 7s, and
  every batch names one of 9 opponents.
- ``hoard``: classic, 4 seats, the same rules; seat 0 holds 100 of the deck's 108 cards.

For each: the entries of seat 0's ``legal``, its snapshot's bytes, the bytes of the patch that a
play and a draw send it, and the median time to list, build and encode its view afresh (``moved()``,
then the engine's ``view``, then its JSON).  The last line printed is JSON.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench.modes import mode  # first: it reads --mode, which decides what importing app gives

# isort: split
from app.engine import Action, HouseRules, Layout, Match, MatchConfig, apply, new_match, view
from app.engine.cards import COLOURS
from app.rooms.diff import make_patch
from app.rooms.frames import dumps
from app.rooms.room_state import Player, RoomState
from app.rooms.room_views import seat_views

RULES = {"seven_o": True, "multi_play": True}


def sevens_layout() -> Layout:
    """Seat 0: every 7 and two more cards, on a red 9 (its red 7s lead); seats 1-9 two cards each."""
    sevens = [f"{c} 7" for c in COLOURS for _ in range(2)]
    others = [[f"{c} {a}", f"{c} {a + 1}"] for a in (1, 3, 5) for c in COLOURS]
    hands = [[*sevens, "red 1", "blue 2"], *others[:9]]
    return Layout(hands, top="red 9")


def hoard_layout() -> Layout:
    """Seat 0: 100 cards; seats 1-3 two each, on a red 5."""
    deck = [f"{c} {n}" for c in COLOURS for n in range(10) for _ in range(1 if n == 0 else 2)]
    deck += [f"{c} {f}" for c in COLOURS for f in ("skip", "reverse", "draw2") for _ in range(2)]
    deck += ["wild"] * 4 + ["wild_draw4"] * 4
    deck.remove("red 5")  # the first card
    small = [deck.pop() for _ in range(6)]
    hand = deck[:100]
    return Layout([hand, small[0:2], small[2:4], small[4:6]], top="red 5")


def room(layout: Layout, seats: int) -> tuple[RoomState, Match]:
    house = HouseRules.from_json(RULES)
    st = RoomState(code="BENCH", edition="classic", public=False, max_seats=seats, target=None, name="bench")
    st.players = [Player(name=f"p{i}", token_hash=str(i), seat=i, connected=True) for i in range(seats)]
    st.house = house
    config = MatchConfig("classic", seats, None, house)
    st.match, events = new_match(config, 0, dealer=seats - 1, layout=layout)
    st.record(events)
    return st, st.match


def figures(name: str, layout: Layout, seats: int, runs: int) -> dict[str, Any]:
    st, m = room(layout, seats)
    snapshot = seat_views(st, range(seats))[0]
    text = dumps(snapshot)
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        m.round.moved()
        dumps(view(m, 0))  # the engine's view, no part kept from before: listed and made anew
        times.append(time.perf_counter() - start)
    legal = snapshot["game"]["table"]["legal"]
    # The next move: seat 0 plays a lone card that leaves its batches as they were (seat 1's draw then).
    before = json.loads(text)
    apply(m, 0, next(a for a in m.round.legal_actions(0)
                     if a.kind == "play" and not a.more and a.target in (None, 1)))
    apply(m, 1, Action("draw")) if Action("draw") in m.round.legal_actions(1) else None
    st.record([])
    after = json.loads(dumps(seat_views(st, range(seats))[0]))
    patch = dumps(make_patch(before, after))
    return {"case": name, "legal_entries": len(legal), "snapshot_bytes": len(text.encode()),
            "patch_bytes": len(patch.encode()), "median_ms": round(statistics.median(times) * 1000, 2)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    cases = [figures("sevens", sevens_layout(), 10, args.runs),
             figures("hoard", hoard_layout(), 4, args.runs)]
    for c in cases:
        print(f"{c['case']:7} legal {c['legal_entries']:6}  snapshot {c['snapshot_bytes']:9,} B  "
              f"patch {c['patch_bytes']:9,} B  list+view+encode {c['median_ms']:8.2f} ms")
    print(json.dumps({"mode": mode(), "cases": cases}))


if __name__ == "__main__":
    main()
