"""Invite links and their QR codes: built from UNO_PUBLIC_URL or an allowed Host only, for rooms
that exist, drawn off the event loop, kept, limited per address, never cached by a shared cache."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from app.config import Settings
from app.web.invite import host_allowed, machine_name, qr_svg, split_host
from tests.live import LiveServer
from tests.waiting import eventually


def serve(**values: Any) -> LiveServer:
    settings = Settings(_env_file=None, create_rooms_per_minute=10_000, rooms_per_address=10_000,  # type: ignore[call-arg]
                        room_misses_per_minute=10_000, **values)
    return LiveServer(settings).start()


@pytest.fixture(scope="module")
def lan() -> Iterator[LiveServer]:
    """As a self-hoster runs it: no UNO_PUBLIC_URL, one extra host name allowed."""
    live = serve(qr_per_minute=10_000, allowed_hosts="uno.example.org, *.friends.example")
    yield live
    live.stop()


def new_room(http: httpx.Client) -> str:
    code: str = http.post("/api/rooms", json={"variant": "classic"}).json()["code"]
    return code


@pytest.mark.parametrize(("host", "expected"), [
    ("192.168.1.20:8000", ("192.168.1.20", ":8000")),
    ("192.168.1.20", ("192.168.1.20", "")),
    ("[fe80::1]:8000", ("[fe80::1]", ":8000")),
    ("LocalHost:65535", ("localhost", ":65535")),
    ("uno.example.org.", ("uno.example.org.", "")),
    ("192.168.1.20:0", None), ("192.168.1.20:65536", None), ("192.168.1.20:", None), ("192.168.1.20:８０", None),
    ("a" * 2200, None), ("x.y:80:80", None), ("[::1", None), ("[zz::1]:80", None), ("bad_name.org", None),
    ("-x.org", None), ("evil.org/path", None), ("evil.org@x", None), ("", None), (None, None),
    ("x\x00.org", None), ("a." * 200 + "org", None),
])
def test_a_host_is_read_only_when_well_formed(host: str | None, expected: tuple[str, str] | None) -> None:
    assert split_host(host) == expected


def test_which_hosts_invite_links_may_start_with() -> None:
    for ok in ("192.168.1.20", "10.0.0.7", "[::1]", "localhost", "uno.localhost", machine_name(),
               f"{machine_name()}.local", f"{machine_name()}.lan", "uno.example.org", "a.friends.example"):
        assert host_allowed(ok, ["uno.example.org", "*.friends.example"]), ok
    for refused in ("evil.example", "friends.example", "example.org", "localhost.evil.example", "xlocalhost"):
        assert not host_allowed(refused, ["uno.example.org", "*.friends.example"]), refused
    assert host_allowed("anything.example", ["*"])


def test_the_lan_address_a_player_opened_is_the_invite(lan: LiveServer) -> None:
    """HOST=0.0.0.0 and http://192.168.1.20:8000 opened: the invite says so, with no setting."""
    with httpx.Client(base_url=lan.http) as http:
        code = new_room(http)
        for host, base in (("192.168.1.20:8000", "http://192.168.1.20:8000"), ("[fe80::1]:8000", "http://[fe80::1]:8000"),
                           ("uno.example.org", "http://uno.example.org"), ("a.friends.example:81", "http://a.friends.example:81"),
                           (f"{machine_name()}.local:8000", f"http://{machine_name()}.local:8000")):
            page = http.get(f"/r/{code}", headers={"host": host})
            assert f'data-public-url="{base}"' in page.text, host
            image = http.get(f"/rooms/{code.lower()}/qr.svg", headers={"host": host})
            assert image.status_code == 200 and image.headers["content-type"] == "image/svg+xml"
            assert image.content == qr_svg(f"{base}/r/{code}")
            assert image.headers["cache-control"].startswith("private")  # never kept by a shared cache


@pytest.mark.parametrize("host", ["a" * 2200, "b" * 3000, "evil.example", "192.168.1.20:99999", "[::1", "x.y:1:2"])
def test_a_host_not_allowed_is_never_reflected_and_never_a_500(lan: LiveServer, host: str) -> None:
    with httpx.Client(base_url=lan.http) as http:
        code = new_room(http)
        image = http.get(f"/rooms/{code}/qr.svg", headers={"host": host})
        assert image.status_code == 400 and image.json()["detail"]["code"] == "bad_host"
        page = http.get(f"/r/{code}", headers={"host": host})
        assert page.status_code == 200
        assert "data-public-url" not in page.text and host not in page.text and host not in image.text


def test_the_public_url_wins_over_any_host() -> None:
    live = serve(public_url="https://uno.example.org/", qr_per_minute=10_000)
    try:
        with httpx.Client(base_url=live.http) as http:
            code = new_room(http)
            for host in ("a" * 3000, "evil.example", "192.168.1.20:8000"):
                image = http.get(f"/rooms/{code}/qr.svg", headers={"host": host})
                assert image.status_code == 200 and image.content == qr_svg(f"https://uno.example.org/r/{code}")
                page = http.get(f"/r/{code}", headers={"host": host})
                assert 'data-public-url="https://uno.example.org"' in page.text
    finally:
        live.stop()


def test_no_qr_code_for_a_room_that_does_not_exist_and_the_miss_counts() -> None:
    settings = Settings(_env_file=None, room_misses_per_minute=3, qr_per_minute=10_000)  # type: ignore[call-arg]
    live = LiveServer(settings).start()
    try:
        with httpx.Client(base_url=live.http) as http:
            for code in ("ZZZZZZZZ", "not-a-code!", "ZZZZZZZ2"):
                missing = http.get(f"/rooms/{code}/qr.svg")
                assert missing.status_code == 404 and missing.json()["detail"]["code"] == "no_room"
            assert live.app.state.qr_codes.drawn == 0
            # The same limit as every other room lookup: guessing codes through images is no faster.
            refused = http.get("/api/rooms/ZZZZZZZ3")
            assert refused.status_code == 429 and int(refused.headers["retry-after"]) >= 1
    finally:
        live.stop()


def test_qr_codes_are_limited_per_address() -> None:
    live = serve(qr_per_minute=3)
    try:
        with httpx.Client(base_url=live.http) as http:
            code = new_room(http)
            assert [http.get(f"/rooms/{code}/qr.svg").status_code for _ in range(3)] == [200] * 3
            refused = http.get(f"/rooms/{code}/qr.svg")
            assert refused.status_code == 429 and refused.json()["detail"]["code"] == "rate_limited"
            assert int(refused.headers["retry-after"]) >= 1
            assert http.get(f"/api/rooms/{code}").status_code == 200  # nothing else is refused
            assert 'reason="qr_rate"' in http.get("/metrics").text
    finally:
        live.stop()


def test_each_image_is_drawn_once_by_a_worker_process_and_few_are_kept() -> None:
    live = serve(qr_per_minute=10_000)
    qr = live.app.state.qr_codes
    qr.kept = 2
    try:
        # Started with the server, before anyone asks for an image.
        eventually(lambda: qr.worker is not None, 20, every=0.01, what="the QR worker's start")
        first = qr.worker
        with httpx.Client(base_url=live.http) as http:
            codes = [new_room(http) for _ in range(3)]
            for _ in range(3):
                assert http.get(f"/rooms/{codes[0]}/qr.svg").status_code == 200
            assert qr.drawn == 1  # asked three times, drawn once
            # By a process of its own: never on the event loop, nor holding the loop's GIL.
            worker = qr.worker
            assert worker is first and worker.pid != os.getpid() and worker.returncode is None
            for code in codes:
                http.get(f"/rooms/{code}/qr.svg")
            assert qr.drawn == 3 and len(qr.images) == 2  # bounded: the oldest are dropped
            # A worker that dies is replaced by the next image.
            os.kill(worker.pid, signal.SIGKILL)
            image = http.get(f"/rooms/{codes[0]}/qr.svg", headers={"host": "10.0.0.9:8000"})
            assert image.status_code == 200 and image.content == qr_svg(f"http://10.0.0.9:8000/r/{codes[0]}")
            assert qr.worker is not None and qr.worker.pid != worker.pid
    finally:
        live.stop()


def test_with_several_nodes_a_rooms_qr_code_goes_to_the_node_that_owns_it() -> None:
    from app.cluster.routing import room_of

    def scope(path: str) -> dict[str, Any]:
        return {"type": "http", "path": path}

    assert room_of(scope("/rooms/ABCD2345/qr.svg")) == "ABCD2345"
    assert room_of(scope("/api/rooms/ABCD2345/players")) == "ABCD2345"
    assert room_of(scope("/ws/rooms/ABCD2345")) == "ABCD2345"
    assert room_of(scope("/r/ABCD2345")) is None and room_of(scope("/api/rooms")) is None
