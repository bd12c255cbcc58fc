"""A finished match's export and replay are built once, then served from what was kept.

The matches here are played by the engine (random legal moves) and stored as a room stores
them (``bench/abuse_matches.big_match_records``), smaller than the benchmark's: 3 seats, 2
rounds.  Each build runs in a worker process; ``MatchBuilds.builds`` counts the builds made.
"""

from __future__ import annotations

import asyncio
import base64
import gzip
import hashlib
import json
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.engine.audit import SIGNATURE, export_document
from app.engine.playback import playback
from app.engine.verify import verify
from app.rooms import records as rec
from app.signatures import new_private_key, public_key
from app.web.limits import burst_window
from bench.abuse_matches import big_match_records
from tests.live import LiveServer
from tests.waiting import eventually

pytestmark = pytest.mark.slow  # every build is made in a worker process of its own: real processes

ROOT = Path(__file__).resolve().parents[2]
FINISHED, LIVE, OTHER = "f1f1f1f1f1f1f1f1", "a1a1a1a1a1a1a1a1", "e2e2e2e2e2e2e2e2"


def small_match(match_id: str, code: str, *, finished: bool = True) -> list[rec.Record]:
    records = big_match_records(match_id, code, seats=3, rounds=2, seed=f"test-{match_id}")
    if not finished:  # cut before the last round ends: the match is still being played
        last = max(i for i, r in enumerate(records) if isinstance(r, rec.RoundStarted))
        records = records[:last + 5]
    return records


def live_server(**limits: Any) -> LiveServer:
    base = LiveServer()
    settings = base.settings.model_copy(update=limits)
    server = LiveServer(settings).start()
    for match_id, code, finished in ((FINISHED, "FINISHED", True), (LIVE, "LIVEONE", False),
                                     (OTHER, "OTHERONE", True)):
        asyncio.run(server.store.write(*small_match(match_id, code, finished=finished)))
    return server


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    live = live_server()
    yield live
    live.stop()


def builds(server: LiveServer) -> dict[str, int]:
    return dict(server.app.state.match_builds.builds)


def test_concurrent_requests_share_one_build_and_later_ones_build_nothing(server: LiveServer) -> None:
    async def many() -> list[httpx.Response]:
        async with httpx.AsyncClient(base_url=server.http, timeout=60) as http:
            return await asyncio.gather(*(http.get(f"/api/matches/{FINISHED}/export") for _ in range(6)))

    first = asyncio.run(many())
    assert [r.status_code for r in first] == [200] * 6
    assert len({r.content for r in first}) == 1
    assert builds(server).get("export") == 1  # six requests at once: one build
    again = httpx.get(f"{server.http}/api/matches/{FINISHED}/export", timeout=30)
    assert again.status_code == 200 and again.content == first[0].content
    assert builds(server).get("export") == 1  # served from what was kept
    assert verify(again.json()) == ["round 1: fair", "round 2: fair"]


def test_if_none_match_is_answered_304(server: LiveServer) -> None:
    for kind in ("export", "replay"):
        url = f"{server.http}/api/matches/{FINISHED}/{kind}"
        r = httpx.get(url, timeout=60)
        assert r.status_code == 200 and r.headers["content-encoding"] == "gzip"
        etag = r.headers["etag"]
        assert etag.startswith('"') and not etag.startswith("W/")  # a strong validator
        cached = httpx.get(url, headers={"If-None-Match": etag})
        assert cached.status_code == 304 and cached.content == b"" and cached.headers["etag"] == etag
        # The plain document's tag names the same document: 304 too, with the tag of what it would get.
        plain = httpx.get(url, headers={"If-None-Match": etag, "Accept-Encoding": "identity"})
        assert plain.status_code == 304 and plain.headers["etag"] == etag.removesuffix('-gzip"') + '"'
        stale = httpx.get(url, headers={"If-None-Match": '"0000"'})
        assert stale.status_code == 200 and stale.content == r.content


def test_gzip_and_plain_bodies_are_the_same_document(server: LiveServer) -> None:
    for kind in ("export", "replay"):
        url = f"/api/matches/{FINISHED}/{kind}"
        with httpx.Client(base_url=server.http, timeout=60) as http:
            with http.stream("GET", url, headers={"Accept-Encoding": "gzip"}) as r:
                assert r.headers["content-encoding"] == "gzip" and r.headers["vary"] == "Accept-Encoding"
                zipped = b"".join(r.iter_raw())
            plain = http.get(url, headers={"Accept-Encoding": "identity"})
        assert "content-encoding" not in plain.headers
        assert int(plain.headers["content-length"]) == len(plain.content)
        assert gzip.decompress(zipped) == plain.content
        assert plain.headers["etag"] == f'"{hashlib.sha256(plain.content).hexdigest()}"'


def test_the_documents_are_the_ones_the_api_always_served(server: LiveServer) -> None:
    """Byte for byte as before: an export as FastAPI rendered ``export_document`` (with its
    signature added, last), a replay as ``playback`` serialised."""
    raw = asyncio.run(server.store.match_export(FINISHED))
    assert raw is not None
    meta = {k: raw[k] for k in ("id", "room", "number", "started_at", "finished_at")}
    args = (raw["config"], raw["players"], raw["rounds"], raw["actions"])
    export = httpx.get(f"{server.http}/api/matches/{FINISHED}/export", timeout=60).content
    doc = json.loads(export)
    assert list(doc)[-1] == SIGNATURE
    expected = {**export_document(*args, match=meta), SIGNATURE: doc[SIGNATURE]}
    assert export == json.dumps(expected, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode()
    replay = httpx.get(f"{server.http}/api/matches/{FINISHED}/replay", timeout=60).content
    assert replay == json.dumps(playback(*args, match=meta), separators=(",", ":"), ensure_ascii=False).encode()


def test_a_live_match_is_still_refused_and_nothing_is_built_for_it(server: LiveServer) -> None:
    before = builds(server)
    for kind in ("export", "replay"):
        r = httpx.get(f"{server.http}/api/matches/{LIVE}/{kind}")
        assert r.status_code == 409 and r.json()["detail"]["code"] == "match_not_finished"
        for unknown in ("nosuchmatch", "x%00y", "a" * 40, "%E2%80%AE"):
            missing = httpx.get(f"{server.http}/api/matches/{unknown}/{kind}")
            assert missing.status_code == 404 and missing.json()["detail"]["code"] == "no_match", unknown
    assert builds(server) == before


def test_the_public_key_is_served_and_signs_the_exports(server: LiveServer) -> None:
    r = httpx.get(f"{server.http}/api/signing-key")
    assert r.status_code == 200
    key = r.json()
    assert key["algorithm"] == "Ed25519" and len(base64.b64decode(key["public_key"])) == 32
    assert key["key_id"] == hashlib.sha256(base64.b64decode(key["public_key"])).hexdigest()[:16]
    assert httpx.get(f"{server.http}/api/signing-key").json() == key  # made once
    signature = httpx.get(f"{server.http}/api/matches/{OTHER}/export", timeout=60).json()[SIGNATURE]
    assert signature["algorithm"] == "Ed25519" and signature["public_key"] == key["public_key"]
    assert signature["key_id"] == key["key_id"]


def test_downloads_are_limited_per_address() -> None:
    server = live_server(match_downloads_per_minute=3)
    try:
        url = f"{server.http}/api/matches/{FINISHED}/export"
        assert [httpx.get(url, timeout=60).status_code for _ in range(3)] == [200, 200, 200]
        refused = httpx.get(url)
        assert refused.status_code == 429
        assert refused.json()["detail"]["code"] == "rate_limited"
        assert int(refused.headers["retry-after"]) >= 1
        # The replay counts toward the same limit; another address is not held up.
        assert httpx.get(f"{server.http}/api/matches/{FINISHED}/replay").status_code == 429
        other = httpx.Client(transport=httpx.HTTPTransport(local_address="127.0.0.2"))
        with other:
            assert other.get(url, timeout=60).status_code == 200
        assert server.app.state.metrics.refused["match_downloads"] == 2
    finally:
        server.stop()


def test_an_address_spends_its_downloads_in_bursts_of_ten_at_most() -> None:
    """60 a minute (the default) is 10 in any 10 s: forty addresses spending a minute's worth
    the moment a build came out held an honest room up (bench/abuse.py export_flood)."""
    assert [burst_window(n) for n in (3, 10, 30, 60, 120, 600)] == [
        (3, 60.0), (10, 60.0), (10, 20.0), (10, 10.0), (20, 10.0), (100, 10.0)]  # the same rate; small limits as before
    server = live_server(match_downloads_per_minute=60)
    try:
        url = f"{server.http}/api/matches/{FINISHED}/export"
        with httpx.Client(timeout=60) as client:
            tag = client.get(url).headers["etag"]
            # A 304 costs the server nothing to send, but counts: nine more make ten.
            assert [client.get(url, headers={"If-None-Match": tag}).status_code for _ in range(9)] == [304] * 9
            refused = client.get(url, headers={"If-None-Match": tag})
        assert refused.status_code == 429, refused.text
        assert refused.json()["detail"]["code"] == "rate_limited"
        assert "at most 10 match exports and replays in 10 s" in refused.json()["detail"]["message"]
        assert 1 <= int(refused.headers["retry-after"]) <= 10  # not the rest of a minute
    finally:
        server.stop()


def test_a_match_too_large_is_refused_with_its_own_code() -> None:
    server = live_server(match_max_actions=10)
    try:
        for kind in ("export", "replay"):
            r = httpx.get(f"{server.http}/api/matches/{FINISHED}/{kind}", timeout=60)
            assert r.status_code == 422, r.text
            body = r.json()["detail"]
            assert body["code"] == "match_too_large" and "at most 10 actions" in body["message"]
        assert builds(server) == {}
    finally:
        server.stop()


def test_a_document_over_the_byte_ceiling_is_too_large() -> None:
    server = live_server(match_max_bytes=10_000)
    try:
        r = httpx.get(f"{server.http}/api/matches/{FINISHED}/replay", timeout=60)
        assert r.status_code == 422 and r.json()["detail"]["code"] == "match_too_large"
        # Remembered: asked again, it is refused without a second build.
        assert httpx.get(f"{server.http}/api/matches/{FINISHED}/replay").status_code == 422
        assert builds(server) == {} and len(server.app.state.match_builds.too_large) == 1
    finally:
        server.stop()


def verify_cli(path: Path, *key: str) -> subprocess.CompletedProcess[str]:
    args = ["--key", key[0]] if key else []
    return subprocess.run([sys.executable, "-m", "app.engine.verify", *args, str(path)], cwd=ROOT,
                          capture_output=True, text=True, check=False)


def test_the_cli_checks_the_signature_and_an_edited_export_fails(server: LiveServer, tmp_path: Path) -> None:
    doc = httpx.get(f"{server.http}/api/matches/{OTHER}/export", timeout=60).json()
    key = tmp_path / "key.json"
    key.write_text(httpx.get(f"{server.http}/api/signing-key").text)
    path = tmp_path / "match.json"
    path.write_text(json.dumps(doc))
    run = verify_cli(path, str(key))
    assert run.returncode == 0, run.stdout + run.stderr
    lines = run.stdout.splitlines()
    assert lines[0].startswith("signature: valid: signed by key ") and lines[1:] == ["round 1: fair", "round 2: fair"]
    # The key as base64 text works as well as the endpoint's JSON; no key: said plainly.
    assert verify_cli(path, json.loads(key.read_text())["public_key"]).returncode == 0
    unchecked = verify_cli(path)
    assert unchecked.returncode == 0 and unchecked.stdout.startswith("signature: not checked")
    # Another match id, room and players: every round still replays "fair", the signature does not.
    edited = {**doc, "match": {**doc["match"], "id": "0000000000000000", "room": "FORGED"},
              "players": ["Mallory", "Trent", "Eve"]}
    path.write_text(json.dumps(edited))
    run = verify_cli(path, str(key))
    assert run.returncode == 1
    lines = run.stdout.splitlines()
    assert lines[0].startswith("signature: NOT signed by key ") and lines[1:] == ["round 1: fair", "round 2: fair"]
    # A valid export checked against some other key fails too.
    path.write_text(json.dumps(doc))
    other = base64.b64encode(public_key(new_private_key())).decode()
    assert verify_cli(path, other).returncode == 1
    # Where the signing module cannot be imported (no cryptography package), the engine alone
    # still checks every round, and says the signature was not checked.
    alone = subprocess.run([sys.executable, "-c", "import sys; sys.modules['app.signatures'] = None; "
                            "from app.engine.verify import main; sys.exit(main(sys.argv[1:]))",
                            "--key", str(key), str(path)], cwd=ROOT, capture_output=True, text=True, check=False)
    assert alone.returncode == 0, alone.stdout + alone.stderr
    lines = alone.stdout.splitlines()
    assert lines[0].startswith("signature: not checked (it needs the cryptography package")
    assert lines[1:] == ["round 1: fair", "round 2: fair"]


@pytest.mark.slow
def test_a_worker_that_dies_fails_its_build_alone() -> None:
    """A build worker killed mid-build (out of memory, say): that request gets a typed 503, and
    the next one builds in a new worker."""
    server = LiveServer().start()
    try:
        asyncio.run(server.store.write(*big_match_records("b1b1b1b1b1b1b1b1", "BIGONE")))  # 8,655 actions
        builds = server.app.state.match_builds
        result: list[httpx.Response] = []
        asking = threading.Thread(target=lambda: result.append(
            httpx.get(f"{server.http}/api/matches/b1b1b1b1b1b1b1b1/replay", timeout=120)))
        asking.start()
        eventually(lambda: builds.pool is not None and builds.pool._processes, 60, every=0.01,
                   what="the worker started")
        for pid in list(builds.pool._processes):
            os.kill(pid, signal.SIGKILL)
        asking.join(120)
        assert result[0].status_code == 503, result[0].text
        assert result[0].json()["detail"]["code"] == "match_build_failed" and result[0].headers["retry-after"] == "5"
        again = httpx.get(f"{server.http}/api/matches/b1b1b1b1b1b1b1b1/replay", timeout=120)
        assert again.status_code == 200 and builds.builds["replay"] == 1
    finally:
        server.stop()


def test_gzip_is_sent_only_to_clients_that_accept_it(server: LiveServer) -> None:
    url = f"{server.http}/api/matches/{FINISHED}/export"
    for header, zipped in (("gzip", True), ("br, gzip;q=0.5", True), ("*", True), ("*;q=0, gzip", True),
                           ("gzip;q=0", False), ("br", False), ("identity", False), ("", False)):
        r = httpx.get(url, headers={"Accept-Encoding": header}, timeout=60)
        assert r.status_code == 200 and (r.headers.get("content-encoding") == "gzip") == zipped, header


def test_a_plain_document_is_unzipped_once_and_kept(server: LiveServer) -> None:
    """Issue 23 (export and replay floods): a client that does not take gzip used to cost the event
    loop a whole unzip per request; the unzipped document is now made once and served as kept."""
    builds = server.app.state.match_builds
    url = f"/api/matches/{FINISHED}/replay"
    with httpx.Client(base_url=server.http, timeout=60) as http:
        zipped = http.get(url).content  # httpx unzips the gzipped body itself
        before = builds.unzips
        first = http.get(url, headers={"Accept-Encoding": "identity"})
        unzipped = builds.unzips
        again = [http.get(url, headers={"Accept-Encoding": "identity"}) for _ in range(3)]
    assert first.status_code == 200 and "content-encoding" not in first.headers
    assert first.content == zipped and all(r.content == first.content for r in again)
    assert int(first.headers["content-length"]) == len(first.content)
    # Unzipped by the first plain request (or an earlier test's), and never again.
    assert unzipped - before in (0, 1) and builds.unzips == unzipped, "unzipped once, then served as kept"
    assert hashlib.sha256(first.content).hexdigest() in builds.plain
    assert first.headers["etag"] == f'"{hashlib.sha256(first.content).hexdigest()}"'
