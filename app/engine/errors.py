"""Typed errors: a machine-readable ``code`` and a message a person can read."""

from __future__ import annotations

from enum import StrEnum


class Refusal(StrEnum):
    """Why an action was refused: ``IllegalAction.code``.

    The room server, the browser client and the tests match on these strings; a member
    equals its string, so comparing ``err.code == "too_late"`` keeps working.
    """

    BAD_ACTION = "bad_action"  # malformed: not an action at all
    BAD_SEAT = "bad_seat"
    ROUND_OVER = "round_over"
    NO_NEXT_ROUND = "no_next_round"
    NOT_YOUR_TURN = "not_your_turn"
    WRONG_ACTION = "wrong_action"  # not the kind of action the pending decision takes
    MUST_PLAY = "must_play"
    HAND_LIMIT = "hand_limit"  # a draw on one's turn while holding the hand limit or more (HR-12)
    SPECIAL_DRAW_NOT_ALLOWED = "special_draw_not_allowed"
    CARD_NOT_IN_HAND = "card_not_in_hand"
    NOT_DRAWN_CARD = "not_drawn_card"
    CARD_NOT_PLAYABLE = "card_not_playable"
    FINISH_RESTRICTED = "finish_restricted"  # a last card the house rules forbid (HR-14, HR-15)
    CARD_FACE_DOWN = "card_face_down"  # a card drawn face down, not turned up yet (HR-33)
    COLOUR_REQUIRED = "colour_required"
    COLOUR_NOT_ALLOWED = "colour_not_allowed"
    BAD_COLOUR = "bad_colour"
    TARGET_REQUIRED = "target_required"
    BAD_TARGET = "bad_target"
    CANNOT_CATCH_PARTNER = "cannot_catch_partner"  # HR-27
    ELIMINATED = "eliminated"  # the seat is out of the match (HR-30)
    TARGET_NOT_ALLOWED = "target_not_allowed"
    UNO_NOT_ALLOWED = "uno_not_allowed"
    TOO_LATE = "too_late"
    ALREADY_DECLARED = "already_declared"
    NOTHING_TO_DECLARE = "nothing_to_declare"
    NOT_EXPOSED = "not_exposed"
    CANNOT_CATCH_SELF = "cannot_catch_self"
    ILLEGAL_ACTION = "illegal_action"  # none of the above, yet not among the legal actions


class EngineError(ValueError):
    code: str = "engine_error"

    def __init__(self, code: str, message: str, **params: object) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        # What a client needs to word the refusal in its own language (seats, the decision owed).
        self.params: dict[str, object] = params

    def to_json(self) -> dict[str, str]:
        # A plain str, whatever the code's type: JSON encoders and ``==`` agree on it either way.
        return {"code": str(self.code), "message": self.message}


class IllegalAction(EngineError):
    """The action is malformed or not allowed now; the state is untouched."""

    code: Refusal

    def __init__(self, code: Refusal, message: str, **params: object) -> None:
        super().__init__(code, message, **params)


class ConfigError(EngineError):
    """A match cannot be set up with these options."""
