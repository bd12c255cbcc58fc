"""A room deals each round from a fresh secret, publishes its commitment, reveals it at the end,
and a restart deals every round again from the secrets it stored (C-2: the deal rotates)."""

from __future__ import annotations

import asyncio
import random
from typing import Any

from app.config import Settings
from app.engine import HouseRules, legal_actions
from app.engine.audit import commitment
from app.rooms import records as rec
from app.rooms.memory_store import InMemoryStore
from app.rooms.options import RoomOptions
from app.rooms.play import act, next_round, start_match
from app.rooms.races import Races
from app.rooms.restore import restore_state
from app.rooms.room_state import BETWEEN, Player, RoomState
from app.rooms.room_views import round_summary, view_for


def test_fresh_secrets_are_committed_revealed_and_restored() -> None:
    defaults: dict[str, Any] = {"_env_file": None}  # the defaults, whatever the environment says
    settings = Settings(**defaults)
    options = RoomOptions("classic", 3, house=HouseRules(rounds=3))
    st = RoomState.open("ROOM2345", options, settings)
    st.players = [Player(f"P{i}", f"h{i}", i) for i in range(3)]
    races, store, rng = Races(st), InMemoryStore(), random.Random(5)
    records: list[rec.Record] = [
        rec.RoomOpened(st.code, "t", "classic", True, 3, None, {"house_rules": options.house.to_json()}),
        rec.SeatsChanged(st.code, tuple(rec.SeatInfo(p.seat, p.name, p.token_hash) for p in st.players)),
        *start_match(st, races)]
    seen: list[str] = []
    while True:
        m = st.match
        assert m is not None
        secret = m.round_secret(m.round_no)
        assert len(secret) == 32 and secret not in seen
        seen.append(secret)
        assert view_for(st, 0)["room"]["commitment"] == commitment(secret)
        assert st.log[-1]["kind"] != "secret" and any(
            e["kind"] == "commitment" and e["commitment"] == commitment(secret) for e in st.log)
        while st.status not in (BETWEEN, "over"):
            seat = m.round.pending.seat if m.round.pending else 0
            records += act(st, races, settings, st.players[seat], rng.choice(legal_actions(m, seat)))
        assert round_summary(st) is not None and round_summary(st)["secret"] == secret  # type: ignore[index]
        assert any(e["kind"] == "secret" and e["secret"] == secret for e in st.log)
        if st.status == "over":
            break
        records += next_round(st, races)
    assert len(seen) == 3 and seen[0] == st.seed
    asyncio.run(store.write(*records))
    stored = asyncio.run(store.load_room(st.code))
    assert stored is not None and stored.match is not None
    assert stored.match.secrets == {1: seen[0], 2: seen[1], 3: seen[2]}
    again = restore_state(stored, settings)
    assert again.match is not None and st.match is not None
    assert again.match.fingerprint() == st.match.fingerprint()
    assert view_for(again, 1)["summary"] == view_for(st, 1)["summary"]
