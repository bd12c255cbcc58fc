"""Export signatures: Ed25519 over an export's canonical bytes (``app.engine.audit.signed_bytes``).

Outside the engine, which stays standard library only: this needs the ``cryptography``
package.  The server signs with it (app/web/match_build.py); ``python -m app.engine.verify
--key KEY`` checks with it when it can be imported, and says so plainly when it cannot.

A valid signature ties an export to the holder of a private key, nothing more: see
docs/ENGINE.md ("What fair proves").
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
from collections.abc import Mapping
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from app.engine.audit import SIGNATURE, signed_bytes

ALGORITHM = "Ed25519"


def new_private_key() -> bytes:
    return Ed25519PrivateKey.generate().private_bytes_raw()


def public_key(private: bytes) -> bytes:
    return Ed25519PrivateKey.from_private_bytes(private).public_key().public_bytes_raw()


def key_id(public: bytes) -> str:
    """A short name for a public key: the first 16 hex digits of its SHA-256."""
    return hashlib.sha256(public).hexdigest()[:16]


def public_key_json(private: bytes) -> dict[str, str]:
    """What ``GET /api/signing-key`` serves."""
    public = public_key(private)
    return {"algorithm": ALGORITHM, "public_key": base64.b64encode(public).decode(), "key_id": key_id(public)}


def sign(doc: Mapping[str, Any], private: bytes) -> dict[str, str]:
    """The ``signature`` field for ``doc`` (whatever signature it has already is left out)."""
    key = Ed25519PrivateKey.from_private_bytes(private)
    public = key.public_key().public_bytes_raw()
    return {"algorithm": ALGORITHM, "key_id": key_id(public), "public_key": base64.b64encode(public).decode(),
            "value": base64.b64encode(key.sign(signed_bytes(doc))).decode()}


def parse_public_key(text: str) -> bytes:
    """A public key as base64 or hex of its 32 bytes, or the JSON ``GET /api/signing-key`` serves."""
    text = text.strip()
    if text.startswith("{"):
        try:
            text = str(json.loads(text)["public_key"])
        except (ValueError, KeyError, TypeError) as err:
            raise ValueError(f"not the JSON of /api/signing-key: {err}") from None
    raw: bytes | None = None
    if len(text) == 64:
        try:
            raw = bytes.fromhex(text)
        except ValueError:
            raw = None
    if raw is None:
        try:
            raw = base64.b64decode(text + "=" * (-len(text) % 4), altchars=b"-_" if "-" in text or "_" in text
                                   else None, validate=True)
        except (binascii.Error, ValueError):
            raise ValueError("a public key is 32 bytes, as base64 or hex") from None
    if len(raw) != 32:
        raise ValueError(f"a public key is 32 bytes, this one is {len(raw)}")
    return raw


def check(doc: Any, public: bytes) -> tuple[bool, str]:
    """(valid, what to print) for ``doc``'s signature and this public key."""
    field = doc.get(SIGNATURE) if isinstance(doc, Mapping) else None
    if not isinstance(field, Mapping):
        return False, "the export is not signed"
    if field.get("algorithm") != ALGORITHM:
        return False, f"the export is signed with {field.get('algorithm')!r}, not {ALGORITHM}"
    try:
        value = base64.b64decode(str(field.get("value")), validate=True)
        Ed25519PublicKey.from_public_bytes(public).verify(value, signed_bytes(doc))
    except (binascii.Error, ValueError, InvalidSignature):
        return False, f"NOT signed by key {key_id(public)}: the signature does not match the export"
    return True, f"valid: signed by key {key_id(public)}"
