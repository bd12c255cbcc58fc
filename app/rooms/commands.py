"""What a client may ask of a room: one discriminated union, validated once at the edge.

The socket layer parses a frame into one of these (``transport/messages.py``); the room
receives the typed command and never re-checks its fields.  An action is checked by the
engine's own validator (``engine.action_from_json``, which stored and bots' actions go
through too), so there is one definition of a well-formed action.
"""

from __future__ import annotations

from typing import Annotated, Literal, get_args

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PlainValidator,
    StrictBool,
    StrictInt,
    StrictStr,
    TypeAdapter,
)

from app.engine import VARIANTS, Action, IllegalAction, action_from_json

# A message id is stored with what it did (actions, chat) and echoed back in answers: short
# printable ASCII only, so no byte a database or a log would choke on (a NUL, say) gets in.
CLIENT_ID_MAX = 64
CLIENT_ID_CHARS = "[ -~]"
ClientId = Annotated[str, Field(min_length=1, max_length=CLIENT_ID_MAX, pattern=f"^{CLIENT_ID_CHARS}+$")]

MAX_SEATS = max(v.max_seats for v in VARIANTS.values())
CHAT_FIELD_MAX = 2000  # characters on the wire; the room's own limit (after cleaning) is a setting
NAME_FIELD_MAX = 200


def _engine_action(value: object) -> Action:
    try:
        return action_from_json(value)
    except IllegalAction as err:
        raise ValueError(err.message) from None


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


# An engine action as a client sends it (``game.table.legal`` lists ready-made ones).
ActionBody = Annotated[Action, PlainValidator(_engine_action)]


class _Command(_Strict):
    id: ClientId | None = None


class ActionCmd(_Command):
    type: Literal["action"]
    id: ClientId  # required: it makes resends after a reconnect safe
    action: ActionBody


class WhyCmd(_Command):
    """Would this action be accepted now?  An ``ack`` if so, else the engine's refusal as an
    ``error`` (its code says why); nothing is applied either way."""

    type: Literal["why"]
    action: ActionBody


class ChatCmd(_Command):
    type: Literal["chat"]
    text: Annotated[str, Field(max_length=CHAT_FIELD_MAX)]


class ReadyCmd(_Command):
    type: Literal["ready"]
    ready: StrictBool = True


class StartCmd(_Command):
    type: Literal["start"]


class RematchCmd(_Command):
    type: Literal["rematch"]


class NextMatchCmd(_Command):
    """The host chooses the next match's game, between matches (checked by ``RoomOptions.parse``)."""

    type: Literal["next_match"]
    variant: str = Field(max_length=32)
    target_score: StrictInt | None = None  # None: the edition's own
    house_rules: dict[str, StrictBool | StrictInt | StrictStr | None] | None = None


class LeaveCmd(_Command):
    type: Literal["leave"]


class KickCmd(_Command):
    type: Literal["kick"]
    seat: Annotated[StrictInt, Field(ge=0, lt=MAX_SEATS)]


class RenameCmd(_Command):
    type: Literal["rename"]
    name: Annotated[str, Field(max_length=NAME_FIELD_MAX)]


class OptionsCmd(_Command):
    """The host changes the room's spectator options (fields left out stay as they are)."""

    type: Literal["options"]
    spectator_chat: StrictBool | None = None
    spectator_delay: StrictInt | None = None  # 0-30: checked by the room (``bad_spectator_delay``)


Emote = Literal["laugh", "wow", "cry", "angry", "clap", "thumbs_up", "gg", "uno"]
EMOTES: tuple[str, ...] = get_args(Emote)  # four faces, two gestures, two stickers ("good game", "UNO!")


class ReactCmd(_Command):
    """A reaction shown at the sender's seat for a moment (app/rooms/reactions.py)."""

    type: Literal["react"]
    emote: Emote


class PingCmd(_Command):
    type: Literal["ping"]


class AddBotCmd(_Command):
    type: Literal["add_bot"]
    # easy / normal / hard (app.bots.LEVELS; left out: normal).  Any other string is checked by the
    # room and refused ``bad_bot_level``, naming the levels there are.
    level: Annotated[StrictStr, Field(max_length=32)] | None = None


ClientCommand = Annotated[
    ActionCmd | ChatCmd | ReadyCmd | StartCmd | RematchCmd | LeaveCmd | KickCmd | RenameCmd | PingCmd | AddBotCmd
    | OptionsCmd | WhyCmd | ReactCmd | NextMatchCmd,
    Field(discriminator="type"),
]
COMMAND_TYPES: tuple[str, ...] = ("action", "chat", "ready", "start", "rematch", "leave", "kick", "rename", "ping",
                                  "add_bot", "options", "why", "react", "next_match")
command_adapter: TypeAdapter[ClientCommand] = TypeAdapter(ClientCommand)
