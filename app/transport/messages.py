"""Client frames → typed room commands: JSON, then the one union of commands (``rooms/commands.py``).

Bad input never raises out of here: ``parse`` raises ``BadMessage`` with a machine-readable
``code`` and a human ``message``, which the endpoint sends back as an ``error`` frame; the
room never sees the frame.
"""

from __future__ import annotations

import json
import re
from typing import Any

from pydantic import ValidationError

from app.rooms.commands import CLIENT_ID_CHARS, CLIENT_ID_MAX, COMMAND_TYPES, ClientCommand, command_adapter

_CLIENT_ID = re.compile(f"{CLIENT_ID_CHARS}+")  # fully matched


class BadMessage(Exception):
    def __init__(self, code: str, message: str, cid: str | None = None) -> None:
        super().__init__(message)
        self.code, self.message, self.id = code, message, cid


def _has_lone_surrogate(value: Any) -> bool:
    if isinstance(value, str):
        return any("\ud800" <= ch <= "\udfff" for ch in value)
    if isinstance(value, dict):
        return any(_has_lone_surrogate(k) or _has_lone_surrogate(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_has_lone_surrogate(v) for v in value)
    return False


def parse(text: str | bytes, max_bytes: int) -> ClientCommand:
    """Parse one client frame into a typed command, or raise ``BadMessage``."""
    if len(text) > max_bytes:
        raise BadMessage("too_large", f"Messages are limited to {max_bytes} bytes.")
    try:
        raw = json.loads(text)
    except (ValueError, UnicodeDecodeError):  # also numbers past Python's int digit limit
        raise BadMessage("bad_json", "That message is not valid JSON.") from None
    except RecursionError:
        raise BadMessage("bad_json", "That message is nested too deeply.") from None
    if not isinstance(raw, dict):
        raise BadMessage("bad_message", "A message must be a JSON object.")
    # A frame is valid UTF-8, but a JSON escape can still spell half a surrogate pair
    # ("\ud800"), a string no encoder will write back out: refuse it here, not when it is sent.
    escaped = "\\u" in text if isinstance(text, str) else b"\\u" in text
    try:
        lone = escaped and _has_lone_surrogate(raw)
    except RecursionError:
        raise BadMessage("bad_json", "That message is nested too deeply.") from None
    if lone:
        raise BadMessage("bad_text", "Text must be valid Unicode (no lone surrogate escapes).")
    cid = raw.get("id")
    if cid is not None and not (isinstance(cid, str) and len(cid) <= CLIENT_ID_MAX and _CLIENT_ID.fullmatch(cid)):
        # Not echoed back: the answer's id is null, as for a frame whose id could not be read.
        raise BadMessage("bad_id", f"A message id is 1 to {CLIENT_ID_MAX} printable ASCII characters.")
    if raw.get("type") not in COMMAND_TYPES:
        raise BadMessage("bad_message", f"Unknown message type {raw.get('type')!r}; expected one of "
                         f"{', '.join(COMMAND_TYPES)}.", cid)
    try:
        command: ClientCommand = command_adapter.validate_python(raw)
    except ValidationError as err:
        first = err.errors()[0]
        loc = first["loc"][1:]  # past the union's tag
        where = ".".join(str(x) for x in loc) or "message"
        if loc[:1] == ("action",) and isinstance(raw.get("action"), dict):
            # An action object the engine's validator refused: its word for it, and its message.
            message = str(first["ctx"]["error"]) if "error" in first.get("ctx", {}) else first["msg"]
            raise BadMessage("bad_action", message, cid) from None
        raise BadMessage("bad_message", f"Invalid {where}: {first['msg']}.", cid) from None
    return command
