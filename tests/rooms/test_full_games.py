"""3–4 clients play a whole round of every edition through the protocol only."""

from __future__ import annotations

import asyncio

import pytest

from app.rooms.room_views import view_for
from tests.live import LiveServer, play_match


@pytest.mark.parametrize(("edition", "seats"), [
    ("classic", 4), ("mario_kart", 3), ("all_wild", 4), ("pocket_pizza", 3),
    ("classic", 3), ("mario_kart", 4), ("all_wild", 3), ("pocket_pizza", 4),
])
def test_full_round_through_the_protocol(server: LiveServer, edition: str, seats: int) -> None:
    clients = asyncio.run(play_match(server, edition, seats, seed=seats))
    code = clients[0].code
    actor = server.registry.get(code)
    views = [c.view for c in clients]
    for c, v in zip(clients, views, strict=True):
        assert v is not None
        assert v["room"]["status"] == "over"
        assert v["summary"]["final"] is True
        # What each client pieced together from patches is exactly the server's view of it now.
        assert v == view_for(actor.state, c.seat)
        assert c.desync_checks > 10
    summary = views[0]["summary"]
    winner = summary["match_winner"]
    assert summary["cards_left"][winner] == 0
    assert summary["scores"][winner] == summary["points"] > 0
    assert summary["table"][0]["seat"] == winner
    assert all(v["game"]["winner"] == winner for v in views)
    # Public words for what happened: someone played, and the round's end was narrated.
    kinds = {e["kind"] for e in views[0]["log"]}
    assert {"round_over", "final"} <= kinds
    # Entries are data only: the client words them in the reader's language (static/js/narrate.js).
    assert all("text" not in e for v in views for e in v["log"] + v["private"])
    assert not server.audit.violations
