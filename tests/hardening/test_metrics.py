"""``/metrics``: Prometheus text a scraper can read, with the figures docs/OPERATIONS.md says to watch."""

from __future__ import annotations

import asyncio
import re

import httpx

from tests.live import LiveServer, create_room, pending_client, seat_players, start_game, sync

SAMPLE = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\]|\\.)*"'
                    r'(?:,[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\]|\\.)*")*\})? (-?[0-9.e+-]+|\+Inf|NaN)$')


def scrape(server: LiveServer) -> dict[str, float]:
    r = httpx.get(server.http + "/metrics")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/plain; version=0.0.4")
    values: dict[str, float] = {}
    typed: set[str] = set()
    for line in r.text.splitlines():
        if line.startswith("# TYPE "):
            typed.add(line.split()[2])
            continue
        if line.startswith("#") or not line:
            continue
        m = SAMPLE.match(line)
        assert m, f"not exposition format: {line!r}"
        name = m.group(1)
        assert re.sub(r"_(bucket|sum|count)$", "", name) in typed or name in typed, f"{name} has no TYPE"
        values[name + (m.group(2) or "")] = float(m.group(3))
    return values


def test_metrics_count_rooms_sockets_actions_and_latency(server: LiveServer) -> None:
    before = scrape(server)
    for name in ("uno_rooms", "uno_sockets", "uno_actions_total", "uno_action_seconds_count",
                 "uno_store_flushes_total", "uno_store_flush_seconds_total", "uno_store_failures_total",
                 "process_resident_memory_bytes", "uno_gc_passes_total", "uno_gc_last_pause_seconds"):
        assert name in before, name
    assert before["process_resident_memory_bytes"] > 1_000_000

    async def main() -> None:
        code = await create_room(server, "classic", 2, target=None)
        clients = await seat_players(server, code, 2)
        await start_game(clients)
        during = scrape(server)
        assert during["uno_sockets"] >= before["uno_sockets"] + 2
        assert during["uno_rooms"] >= 1 and during['uno_rooms_by_status{status="playing"}'] >= 1
        for _ in range(3):
            actor = pending_client(clients)
            assert actor is not None
            move = next(a for a in actor.game["table"]["legal"] if a["kind"] not in ("declare_uno", "catch"))
            assert (await actor.request({"type": "action", "action": move}))["type"] == "ack"
            await sync(clients)
        await clients[0].send({"type": "nonsense"})
        await clients[0].request({"type": "ping"})
        for c in clients:
            await c.close()

    asyncio.run(main())
    after = scrape(server)
    assert after["uno_actions_total"] >= before["uno_actions_total"] + 3
    assert after["uno_action_seconds_count"] == after["uno_actions_total"]
    assert after['uno_action_seconds_bucket{le="+Inf"}'] == after["uno_action_seconds_count"]
    buckets = [v for k, v in after.items() if k.startswith("uno_action_seconds_bucket")]
    assert buckets == sorted(buckets)  # cumulative
    assert after['uno_messages_total{type="invalid"}'] >= 1 and after['uno_messages_total{type="action"}'] >= 3
    assert after["uno_sockets_opened_total"] >= before["uno_sockets_opened_total"] + 2


def test_metrics_give_each_cache_its_size_and_the_matches_settled(server: LiveServer) -> None:
    """What bench/soak.py samples to tell a bounded cache from a growing one (app/web/cache_sizes.py)."""
    values = scrape(server)
    for cache in ("match_builds", "match_builds_plain", "match_builds_too_large", "qr_codes", "lobby_pages",
                  "new_player_windows"):
        assert f'uno_cache_entries{{cache="{cache}"}}' in values, cache
    assert values['uno_cache_bytes{cache="match_builds"}'] >= 0
    httpx.get(server.http + "/api/rooms")  # a lobby page, made once and kept for the list it was cut from
    assert scrape(server)['uno_cache_entries{cache="lobby_pages"}'] >= 1
