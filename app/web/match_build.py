"""Building one finished match's export or replay: what a build worker process runs.

The worker reads the match itself (from the database, given its URL), so that neither the
rows nor the document ever pass through the server's process: it gets back only the gzipped
bytes.  (With the in-memory store the match is handed over as read.)  Kept apart from the web
layer's state so that a worker, a fresh interpreter, imports only what a build needs.

The document is serialised exactly as the API always served it (an export as FastAPI's JSON
response rendered it, a replay as before); an export gains its ``signature`` field, last.
"""

from __future__ import annotations

import asyncio
import contextlib
import gzip
import hashlib
import json
import os
from typing import Any

from app.engine.audit import SIGNATURE, export_document
from app.engine.playback import playback
from app.signatures import sign

KINDS = ("export", "replay")
NICENESS = 10  # a build is background work: on a busy machine the rooms' process runs first


def lower_priority() -> None:
    """A build worker's initializer: it yields the CPU to the server's own process."""
    with contextlib.suppress(OSError, AttributeError):  # AttributeError: no os.nice (Windows)
        os.nice(NICENESS)


class Unbuildable(Exception):
    """Why a match was not built: ``no_match``, ``match_not_finished`` or ``match_too_large``
    (``measure``: its actions or bytes)."""

    def __init__(self, code: str, measure: int = 0) -> None:
        super().__init__(code, measure)
        self.code, self.measure = code, measure


def _meta(raw: dict[str, Any]) -> dict[str, Any]:
    return {k: raw[k] for k in ("id", "room", "number", "started_at", "finished_at")}


async def _read(url: str, match_id: str, max_actions: int) -> dict[str, Any] | None:
    from sqlalchemy import func, select

    from app.persistence.db import create_engine
    from app.persistence.export import read_export
    from app.persistence.models import ActionRow

    engine = create_engine(url, pool_size=1, max_overflow=0)
    try:
        async with engine.connect() as conn:
            # Counted before it is read: a match too long to build is never held whole.
            count = (await conn.execute(select(func.count()).select_from(ActionRow)
                                        .where(ActionRow.match_id == match_id))).scalar_one()
            if count > max_actions:
                raise Unbuildable("match_too_large", count)
            return await read_export(conn, match_id)
    finally:
        await engine.dispose()


def build(kind: str, source: dict[str, Any], private_key: bytes, max_actions: int,
          max_bytes: int) -> tuple[str, int, bytes, list[str]]:
    """A finished match's document: its SHA-256 (hex), its size, its gzipped bytes, and the
    players' names it was built with (deleting a player may rename them meanwhile: the build is
    then stored by no one, ``BuildStore.put``).

    ``source``: ``{"url", "match_id"}`` to read it from the database, or ``{"raw"}``, the
    store's ``match_export`` of it.  Raises ``Unbuildable``."""
    raw = source["raw"] if "raw" in source else asyncio.run(_read(source["url"], source["match_id"], max_actions))
    if raw is None:
        raise Unbuildable("no_match")
    if raw["status"] != "over":
        raise Unbuildable("match_not_finished")
    if len(raw["actions"]) > max_actions:
        raise Unbuildable("match_too_large", len(raw["actions"]))
    args = (raw["config"], raw["players"], raw["rounds"], raw["actions"])
    if kind == "export":
        doc = export_document(*args, match=_meta(raw))
        doc[SIGNATURE] = sign(doc, private_key)
        # As FastAPI's JSONResponse rendered it, so that clients see the bytes they always did.
        body = json.dumps(doc, ensure_ascii=False, allow_nan=False, indent=None, separators=(",", ":")).encode()
    elif kind == "replay":
        body = json.dumps(playback(*args, match=_meta(raw)), separators=(",", ":"), ensure_ascii=False).encode()
    else:
        raise ValueError(f"no such build {kind!r}")
    if len(body) > max_bytes:
        raise Unbuildable("match_too_large", len(body))
    return (hashlib.sha256(body).hexdigest(), len(body), gzip.compress(body, compresslevel=6, mtime=0),
            list(raw["players"]))
