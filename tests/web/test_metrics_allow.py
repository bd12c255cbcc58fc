"""``GET /metrics`` is for the operator: served only to UNO_METRICS_ALLOW (loopback by default)."""

from __future__ import annotations

import asyncio

import httpx
import pytest
from pydantic import ValidationError

from app.config import Settings
from app.web.metrics import allowed
from tests.live import LiveServer


def settings(allow: str) -> Settings:
    return Settings(_env_file=None, metrics_allow=allow)  # type: ignore[call-arg]


def test_by_default_only_loopback_reads_the_metrics() -> None:
    default = Settings(_env_file=None)  # type: ignore[call-arg]
    for address in ("127.0.0.1", "127.8.9.10", "::1", "::ffff:127.0.0.1"):
        assert allowed(default, address), address
    for address in ("10.0.0.5", "192.168.1.20", "203.0.113.7", "2001:db8::1", "::ffff:203.0.113.7", "unknown", ""):
        assert not allowed(default, address), address


def test_a_configured_network_and_anyone() -> None:
    lan = settings("10.0.0.0/8, 2001:db8::/32")
    assert allowed(lan, "10.1.2.3") and allowed(lan, "2001:db8::5")
    assert not allowed(lan, "127.0.0.1") and not allowed(lan, "11.0.0.1")
    assert allowed(settings("*"), "203.0.113.7")


def test_a_bad_entry_stops_the_server_at_start() -> None:
    with pytest.raises(ValidationError):
        settings("10.0.0.0/8,not-a-network")


def test_an_address_not_allowed_gets_a_typed_403() -> None:
    live = LiveServer(settings("127.0.0.2")).start()

    async def main() -> None:
        async with httpx.AsyncClient(base_url=live.http) as http:
            r = await http.get("/metrics")
            assert r.status_code == 403 and r.json()["detail"]["code"] == "forbidden", r.text
            assert "uno_rooms" not in r.text
        transport = httpx.AsyncHTTPTransport(local_address="127.0.0.2")
        async with httpx.AsyncClient(base_url=live.http, transport=transport) as http:
            r = await http.get("/metrics")
            assert r.status_code == 200 and "uno_rooms " in r.text

    try:
        asyncio.run(main())
    finally:
        live.stop()
