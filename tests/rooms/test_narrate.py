"""Public events in words: every event kind the engine emits gets a sentence with names."""

from __future__ import annotations

import random

from app.engine import MatchConfig, apply, legal_actions, new_match, start_next_round
from app.rooms.narrate import describe, scrub


def names(seat: int) -> str:
    return ["Ana", "Bo", "Cy", "Di"][seat]


def test_every_event_of_random_games_reads_as_a_sentence() -> None:
    seen: set[str] = set()
    for edition in ("classic", "mario_kart", "all_wild", "pocket_pizza"):
        for seed in range(6):
            rng = random.Random(seed)
            match, events = new_match(MatchConfig(edition, 4, target=1), seed)
            while True:
                for ev in events:
                    seen.add(ev.kind)
                    text = describe(ev.kind, ev.data, names)
                    assert text.endswith((".", "!")) and "{" not in text, (ev, text)
                    assert "_" not in text.replace(ev.kind, "") or ev.kind == "item", text
                    # Scrubbed data keeps no card ids and only string keys.
                    clean = scrub(ev.data)
                    assert "'id'" not in repr(clean)
                if match.phase == "over":
                    break
                if match.phase == "between":
                    events = start_next_round(match)
                    continue
                seat = match.round.pending.seat  # type: ignore[union-attr]
                events = apply(match, seat, rng.choice(legal_actions(match, seat)))
    assert {"play", "draw", "drew", "round_over", "match_over", "item", "swap", "uno", "caught"} <= seen


def test_sentences_name_people() -> None:
    assert describe("caught", {"seat": 0, "by": 2}, names) == "Cy caught Ana not saying UNO: Ana draws 2."
    assert describe("play", {"seat": 1, "card": {"colour": None, "face": "wild_draw4"}, "colour": "red"},
                    names) == "Bo played Wild Draw Four and chose red."
    assert describe("draw", {"seat": 3, "count": 2, "reason": "banana_peel"}, names) == "Di drew 2 cards (Banana Peel)."
