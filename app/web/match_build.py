"""Building one finished match's export or replay: what a build worker process runs.

Kept apart from the web layer's state so that a worker (a fresh interpreter, spawned) imports
only the engine, json, gzip and the signing module.  The document is serialised exactly as
the API always served it (an export as FastAPI's JSON response did, a replay as before); an
export gains its ``signature`` field last.
"""

from __future__ import annotations

import gzip
import hashlib
import json
from typing import Any

from app.engine.audit import SIGNATURE, export_document
from app.engine.playback import playback
from app.signatures import sign

KINDS = ("export", "replay")


class TooLarge(Exception):
    """The document would be larger than the server builds."""

    def __init__(self, size: int) -> None:
        super().__init__(size)
        self.size = size


def _meta(raw: dict[str, Any]) -> dict[str, Any]:
    return {k: raw[k] for k in ("id", "room", "number", "started_at", "finished_at")}


def build(kind: str, raw: dict[str, Any], private_key: bytes, max_bytes: int) -> tuple[str, int, bytes]:
    """A finished match's document (``raw``: the store's ``match_export``): its SHA-256 (hex), its
    size and its gzipped bytes.  Raises ``TooLarge`` past ``max_bytes``."""
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
        raise TooLarge(len(body))
    return hashlib.sha256(body).hexdigest(), len(body), gzip.compress(body, compresslevel=6, mtime=0)
