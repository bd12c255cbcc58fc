"""Client → server messages, validated with pydantic.

Bad input never raises out of here: ``parse`` returns a typed error (machine-readable
``code`` + human ``message``), which the endpoint sends back as an ``error`` frame.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

ClientId = Annotated[str, Field(min_length=1, max_length=64)]


class _Msg(BaseModel):
    model_config = ConfigDict(extra="forbid")
    id: ClientId | None = None


class ActionMsg(_Msg):
    type: Literal["action"]
    id: ClientId  # required: it makes resends after a reconnect safe
    action: dict[str, Any]


class ChatMsg(_Msg):
    type: Literal["chat"]
    text: Annotated[str, Field(max_length=2000)]


class ReadyMsg(_Msg):
    type: Literal["ready"]
    ready: bool = True


class StartMsg(_Msg):
    type: Literal["start"]


class RematchMsg(_Msg):
    type: Literal["rematch"]


class LeaveMsg(_Msg):
    type: Literal["leave"]


class KickMsg(_Msg):
    type: Literal["kick"]
    seat: int


class RenameMsg(_Msg):
    type: Literal["rename"]
    name: Annotated[str, Field(max_length=200)]


class PingMsg(_Msg):
    type: Literal["ping"]


class AddBotMsg(_Msg):
    type: Literal["add_bot"]


ClientMessage = Annotated[
    ActionMsg | ChatMsg | ReadyMsg | StartMsg | RematchMsg | LeaveMsg | KickMsg | RenameMsg | PingMsg | AddBotMsg,
    Field(discriminator="type"),
]
_adapter: TypeAdapter[Any] = TypeAdapter(ClientMessage)

TYPES = ("action", "chat", "ready", "start", "rematch", "leave", "kick", "rename", "ping", "add_bot")


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


def parse(text: str | bytes, max_bytes: int) -> _Msg:
    """Parse one client frame or raise ``BadMessage`` with a code and a readable message."""
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
    cid = raw.get("id") if isinstance(raw.get("id"), str) else None
    if raw.get("type") not in TYPES:
        raise BadMessage("bad_message", f"Unknown message type {raw.get('type')!r}; expected one of "
                         f"{', '.join(TYPES)}.", cid)
    try:
        msg: _Msg = _adapter.validate_python(raw)
    except ValidationError as err:
        first = err.errors()[0]
        where = ".".join(str(x) for x in first["loc"][1:]) or "message"
        raise BadMessage("bad_message", f"Invalid {where}: {first['msg']}.", cid) from None
    return msg
