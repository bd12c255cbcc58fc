"""Match documents are sent within the process's download budget (app/web/download_budget.py):
``UNO_MATCH_DOWNLOADS_AT_ONCE`` at a time (429 ``match_downloads_busy`` past it, a 304 always
answered), all of them paced to ``UNO_MATCH_DOWNLOAD_BYTES_PER_SECOND``, the bytes unchanged.

A download is held open deterministically by a rate of 1 byte a second: its first piece (1 KiB)
is sent at once, the next one would wait 17 minutes, so its slot stays taken until its client
goes.  Real server, real sockets (tests/live.py).
"""

from __future__ import annotations

import gzip
import hashlib
import time
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from app.web.download_budget import DownloadBudget
from tests.live import LiveServer
from tests.waiting import eventually
from tests.web.test_match_builds import FINISHED, OTHER, live_server

pytestmark = pytest.mark.slow  # every build is made in a worker process of its own: real processes


def budget(server: LiveServer) -> DownloadBudget:
    found: DownloadBudget = server.app.state.match_downloads
    return found


def wait_for(condition: Callable[[], bool], what: str, timeout: float = 60) -> None:
    eventually(condition, timeout, what=what)


def assert_busy(r: httpx.Response) -> None:
    assert r.status_code == 429, r.text
    detail = r.json()["detail"]
    assert detail["code"] == "match_downloads_busy" and "at once" in detail["message"]
    assert 1 <= int(r.headers["retry-after"]) <= 60


@pytest.mark.parametrize("encoding", ["gzip", "identity"])
def test_a_full_budget_refuses_with_429_answers_304_and_frees_a_slot_whose_client_goes(encoding: str) -> None:
    server = live_server(match_downloads_at_once=1, match_download_bytes_per_second=1)
    try:
        url = f"/api/matches/{FINISHED}/export"
        headers = {"Accept-Encoding": encoding}
        for match_id in (FINISHED, OTHER):  # built beforehand (a build can take a while on a busy machine)
            built = httpx.get(f"{server.http}/api/matches/{match_id}/export", headers={"If-None-Match": "*"},
                              timeout=120)
            assert built.status_code == 304  # costs no slot: nothing is sent
        with httpx.Client(base_url=server.http, timeout=60) as holder:
            with holder.stream("GET", url, headers=headers) as held:
                assert held.status_code == 200
                etag = held.headers["etag"]
                body = held.iter_raw()  # kept: a generator let go closes the response
                first = next(body)  # the first piece came; the rest waits on the byte budget
                assert 0 < len(first) < int(held.headers["content-length"])
                assert len(budget(server).sending) == 1
                # The one slot is taken: others are refused at once, whatever the document or encoding.
                for other in (url, f"/api/matches/{OTHER}/export"):
                    for enc in ("gzip", "identity"):
                        assert_busy(httpx.get(server.http + other, headers={"Accept-Encoding": enc}, timeout=60))
                # A client that has the document is answered all the same, and takes no slot.
                cached = httpx.get(server.http + url, headers={**headers, "If-None-Match": etag}, timeout=60)
                assert cached.status_code == 304 and cached.headers["etag"] == etag and cached.content == b""
                assert len(budget(server).sending) == 1
            # The holder went mid-download (its connection closed with the body unread): its slot is freed.
            wait_for(lambda: not budget(server).sending, "the slot of a client gone mid-download to be freed")
        assert server.app.state.metrics.refused["match_downloads_busy"] == 4
        # ... and taken by the next download (its headers come at once; its body would take minutes).
        with httpx.Client(base_url=server.http, timeout=60) as again, again.stream("GET", url, headers=headers) as r:
            assert r.status_code == 200 and r.headers["etag"] == etag
            assert len(budget(server).sending) == 1
        wait_for(lambda: not budget(server).sending, "the second slot to be freed")
    finally:
        server.stop()


RATE = 1_048_576  # bytes a second: pieces of 20,971 bytes, each after the one before


@pytest.mark.parametrize("cache_bytes", [33_554_432, 1_000])  # 1,000: the plain document is unzipped as it is sent
def test_paced_bodies_are_the_built_documents_byte_for_byte(cache_bytes: int) -> None:
    server = live_server(match_downloads_at_once=8, match_download_bytes_per_second=RATE,
                         match_cache_bytes=cache_bytes)
    try:
        bodies: dict[tuple[str, str, str], tuple[bytes, Any]] = {}
        started = time.monotonic()
        with httpx.Client(base_url=server.http, timeout=120) as http:
            for match_id in (FINISHED, OTHER):
                for kind in ("export", "replay"):
                    for encoding in ("gzip", "identity"):
                        url = f"/api/matches/{match_id}/{kind}"
                        with http.stream("GET", url, headers={"Accept-Encoding": encoding}) as r:
                            assert r.status_code == 200
                            bodies[match_id, kind, encoding] = b"".join(r.iter_raw()), r.headers
        took = time.monotonic() - started
        sent = 0
        for (match_id, kind, _), (plain, headers) in ((k, v) for k, v in bodies.items() if k[2] == "identity"):
            zipped, zipped_headers = bodies[match_id, kind, "gzip"]
            assert "content-encoding" not in headers and zipped_headers["content-encoding"] == "gzip"
            assert int(headers["content-length"]) == len(plain) and int(zipped_headers["content-length"]) == len(zipped)
            # The ETag is the SHA-256 of the document as built: no piece lost, doubled or out of order.
            assert headers["etag"] == f'"{hashlib.sha256(plain).hexdigest()}"'
            assert zipped_headers["etag"] == headers["etag"].removesuffix('"') + '-gzip"'
            assert gzip.decompress(zipped) == plain
            sent += len(plain) + len(zipped)
        # Paced: every piece after a download's first waited for the ones before it at the rate (a busy
        # machine only makes it slower).
        piece = budget(server).piece
        assert piece == RATE // 50 and sent > 20 * piece
        assert took >= 0.9 * (sent - len(bodies) * piece) / RATE, (took, sent)
        assert not budget(server).sending  # every slot freed
    finally:
        server.stop()
