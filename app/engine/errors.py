"""Typed errors: a machine-readable ``code`` and a message a person can read."""

from __future__ import annotations


class EngineError(ValueError):
    code: str = "engine_error"

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def to_json(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message}


class IllegalAction(EngineError):
    """The action is malformed or not allowed now; the state is untouched."""


class ConfigError(EngineError):
    """A match cannot be set up with these options."""
