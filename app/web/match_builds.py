"""Finished matches' exports and replays, built once, off the event loop, and kept gzipped.

A finished match never changes, so its export and its replay are built once (a few thousand
actions replayed: about a second of CPU for a long 10-seat match) and their gzipped bytes kept
in the database (``match_builds``), which every node shares, and the most recent ones in memory
too (``UNO_MATCH_CACHE_BYTES``).  Only its players' names may change: deleting a player renames
them in the stored match and drops its stored builds (``app/persistence/players.py``).  So a
copy held in memory is served only after one indexed read says it is still the stored build
(``BuildStore.current``); one that is not is forgotten, with its unzipped twin, and the match
built again — on every node, whichever one the deletion ran on.
Bounds, so that no client can make the server hold more:

- a build runs in a worker process (``UNO_MATCH_BUILDS_AT_ONCE`` at a time, at a lower CPU
  priority), one that exits after each build, so that its memory goes back to the system and
  the event loop never waits on its CPU;
- one build per match at a time: concurrent requests for it wait for the same build;
- at most ``UNO_MATCH_BUILDS_WAITING`` different matches wait for a build (503 beyond it);
- a match of more than ``UNO_MATCH_MAX_ACTIONS`` actions, or whose document would be more than
  ``UNO_MATCH_MAX_BYTES``, is not built (``match_too_large``);
- ``UNO_MATCH_DOWNLOADS_PER_MINUTE`` requests per client address, the rate held over 10 s windows
  (by default at most 10 at once; 429 beyond it: app/web/limits.py ``burst_window``);
- and, once built, ``UNO_MATCH_DOWNLOADS_AT_ONCE`` documents sent at a time, together at most
  ``UNO_MATCH_DOWNLOAD_BYTES_PER_SECOND`` (app/web/download_budget.py).
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import zlib
from collections import Counter, OrderedDict
from collections.abc import Awaitable, Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from app.config import Settings
from app.persistence import SqlStore
from app.persistence.builds import BuildStore, Built, MemoryBuilds, SqlBuilds
from app.rooms.ports import Store
from app.signatures import ALGORITHM, new_private_key

from .match_build import Unbuildable, build, lower_priority

log = logging.getLogger("app.web")

KEY_NAME = "export"
TOO_LARGE_KEPT = 1024  # matches known to be too large, remembered so they are not read again
BUILD_TRIES = 3  # builds of one match renamed under them (players deleting themselves) before giving up


class Refused(Exception):
    """A request for a build the server will not serve: the HTTP status and the API's error."""

    def __init__(self, status: int, code: str, message: str, retry_after: int | None = None) -> None:
        super().__init__(message)
        self.status, self.code, self.message, self.retry_after = status, code, message, retry_after


def _retrieved(fut: asyncio.Future[Built]) -> None:
    if not fut.cancelled():
        fut.exception()  # every waiter may have gone: the error is theirs, not the loop's to log


class MatchBuilds:
    def __init__(self, settings: Settings, store: Store) -> None:
        self.settings, self.store = settings, store
        self.kept: BuildStore = SqlBuilds(store.engine) if isinstance(store, SqlStore) else MemoryBuilds(store)
        self.cache: OrderedDict[tuple[str, str], Built] = OrderedDict()
        self.cache_bytes = 0
        # The unzipped documents, for clients that do not take gzip (by the document's SHA-256),
        # kept within the same byte ceiling as the gzipped ones.
        self.plain: OrderedDict[str, bytes] = OrderedDict()
        self.plain_bytes = 0
        self.unzipping = asyncio.Lock()  # one document unzipped at a time: a burst costs one at a time
        self.unzips = 0  # documents this process unzipped (tests)
        self.too_large: OrderedDict[str, int] = OrderedDict()  # match id -> its actions or bytes
        self.waiting: dict[tuple[str, str], asyncio.Future[Built]] = {}
        self.tasks: set[asyncio.Task[None]] = set()
        self.slots = asyncio.Semaphore(max(1, settings.match_builds_at_once))
        self.pool: ProcessPoolExecutor | None = None
        self.private_key: bytes | None = None
        self.builds: Counter[str] = Counter()  # documents this process built, by kind (tests, metrics)

    # ------------------------------------------------------------------ the key

    async def signing_key(self) -> bytes:
        if self.private_key is None:
            self.private_key = await self.kept.signing_key(KEY_NAME, ALGORITHM, new_private_key)
        return self.private_key

    # ------------------------------------------------------------------ builds

    async def get(self, match_id: str, kind: str, shown: Callable[[str], Awaitable[bool]] | None = None) -> Built:
        """The built document; raises ``Refused`` (404, 409, 422 too large, 503 busy or failed).

        ``shown(room)``: whether the match's room shows its end to everyone yet (a spectator delay
        holds it back), asked before a build; a document once built was shown, and stays so."""
        key = (match_id, kind)
        hit = self.cache.get(key)
        if hit is not None:
            # Served only while it is still the stored build: deleting a player drops the stored
            # builds that name them, on whichever node, and this copy must go with them.
            if await self.kept.current(match_id, kind, hit.etag):
                if key in self.cache:
                    self.cache.move_to_end(key)
                return hit
            self._forget(key, hit)
        if match_id in self.too_large:
            raise self._too_large(self.too_large[match_id])
        fut = self.waiting.get(key)
        if fut is None:
            if len(self.waiting) >= self.settings.match_builds_waiting:
                raise Refused(503, "match_builds_busy", "The server is building other matches' exports and "
                              "replays; try again in a few seconds.", retry_after=5)
            fut = asyncio.get_running_loop().create_future()
            fut.add_done_callback(_retrieved)
            self.waiting[key] = fut
            task = asyncio.create_task(self._make(key, fut, shown), name=f"match-build-{match_id}-{kind}")
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)
        return await asyncio.shield(fut)

    async def _make(self, key: tuple[str, str], fut: asyncio.Future[Built],
                    shown: Callable[[str], Awaitable[bool]] | None) -> None:
        match_id, kind = key
        try:
            built = await self.kept.get(match_id, kind)
            if built is None:
                found = await self.kept.status(match_id)
                self._check(match_id, kind, found[0] if found is not None else None)
                if found is not None and shown is not None and not await shown(found[1]):
                    self._check(match_id, kind, "playing")  # its spectators have not seen the end yet
                built = await self._build_named(match_id, kind)
            self._keep(key, built)
            fut.set_result(built)
        except Exception as err:
            fut.set_exception(err)
        finally:
            del self.waiting[key]

    @staticmethod
    def _check(match_id: str, kind: str, status: str | None) -> None:
        """Refuse what cannot be built before a worker is started for it."""
        if status is None:
            raise Refused(404, "no_match", f"There is no match {match_id!r}.")
        if status != "over":
            # A live round's secret and hands stay secret; an abandoned match has no end to check.
            verb = "exported" if kind == "export" else "replayed"
            raise Refused(409, "match_not_finished", f"Only a finished match can be {verb}.")

    async def _build_named(self, match_id: str, kind: str) -> Built:
        """Build and store: a build whose players were renamed while it ran (one of them deleted
        themselves) would name them again, so it is stored by no one and made afresh."""
        for _ in range(BUILD_TRIES):
            built, names = await self._build(match_id, kind)
            if await self.kept.put(match_id, kind, built, names):
                return built
        raise Refused(503, "match_build_failed",
                      "This match changed while it was being built; try again in a few seconds.",
                      retry_after=5)

    async def _build(self, match_id: str, kind: str) -> tuple[Built, list[str]]:
        s = self.settings
        private = await self.signing_key() if kind == "export" else b""
        source: dict[str, Any]
        if isinstance(self.store, SqlStore):  # the worker reads the match itself: it never passes through here
            source = {"url": self.store.engine.url.render_as_string(hide_password=False), "match_id": match_id}
        else:
            source = {"raw": await self.store.match_export(match_id)}
        async with self.slots:
            loop = asyncio.get_running_loop()
            try:
                etag, size, body, names = await loop.run_in_executor(
                    self._pool(), build, kind, source, private, s.match_max_actions, s.match_max_bytes)
            except BrokenProcessPool:
                # A worker died (killed, out of memory): this build fails, the next gets a new pool.
                log.warning("a match build worker died building %s of %s", kind, match_id)
                self.pool = None
                raise Refused(503, "match_build_failed", "Building this match failed; try again in a few "
                              "seconds.", retry_after=5) from None
            except Unbuildable as err:
                if err.code != "match_too_large":  # it went (or is not over) since it was looked up
                    self._check(match_id, kind, None if err.code == "no_match" else err.code)
                raise self._remember_too_large(match_id, err.measure) from None
        self.builds[kind] += 1
        return Built(etag, size, body), names

    def _pool(self) -> ProcessPoolExecutor:
        if self.pool is None:
            # spawn: a fresh interpreter, not a fork of this one (its threads, sockets, event loop);
            # one build per worker, so that a build's peak memory leaves with its process.
            self.pool = ProcessPoolExecutor(max(1, self.settings.match_builds_at_once),
                                            mp_context=multiprocessing.get_context("spawn"), max_tasks_per_child=1,
                                            initializer=lower_priority)
        return self.pool

    def _too_large(self, measure: int) -> Refused:
        s = self.settings
        return Refused(422, "match_too_large", f"This match is too large to export or replay here ({measure:,}): "
                       f"the server builds matches of at most {s.match_max_actions:,} actions and "
                       f"{s.match_max_bytes:,} bytes.")

    def _remember_too_large(self, match_id: str, measure: int) -> Refused:
        self.too_large[match_id] = measure
        while len(self.too_large) > TOO_LARGE_KEPT:
            self.too_large.popitem(last=False)
        return self._too_large(measure)

    def _keep(self, key: tuple[str, str], built: Built) -> None:
        if key in self.cache or len(built.body) > self.settings.match_cache_bytes:
            return
        self.cache[key] = built
        self.cache_bytes += len(built.body)
        while self.cache_bytes > self.settings.match_cache_bytes:
            _, old = self.cache.popitem(last=False)
            self.cache_bytes -= len(old.body)

    def _forget(self, key: tuple[str, str], stale: Built) -> None:
        """Drop a build no longer stored, and its unzipped copy: neither is served again, and the
        names in them (a deleted player's) leave this process's memory now, not when evicted."""
        if self.cache.get(key) is stale:
            del self.cache[key]
            self.cache_bytes -= len(stale.body)
        doc = self.plain.pop(stale.etag, None)
        if doc is not None:
            self.plain_bytes -= len(doc)

    async def unzipped(self, built: Built) -> bytes | None:
        """``built``'s document unzipped, for a client that does not take gzip: unzipped once, in a
        thread, and kept, so that a flood of such clients costs the event loop only its sends (it
        used to unzip every response, a piece between sends).  None for a document too large to
        keep: that one is unzipped as it is sent."""
        if built.size > self.settings.match_cache_bytes:
            return None
        async with self.unzipping:
            doc = self.plain.get(built.etag)
            if doc is None:
                doc = await asyncio.to_thread(zlib.decompress, built.body, 31)
                self.unzips += 1
                self.plain[built.etag] = doc
                self.plain_bytes += len(doc)
                while self.plain_bytes > self.settings.match_cache_bytes:
                    _, old = self.plain.popitem(last=False)
                    self.plain_bytes -= len(old)
            else:
                self.plain.move_to_end(built.etag)
            return doc

    async def close(self) -> None:
        for task in list(self.tasks):
            task.cancel()
        if self.pool is not None:
            pool, self.pool = self.pool, None
            # Waited for (a build under way finishes first): its worker processes and their
            # queues' semaphores are cleaned up, not left to the interpreter's exit.
            await asyncio.to_thread(pool.shutdown, wait=True, cancel_futures=True)
