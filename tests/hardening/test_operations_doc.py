"""docs/OPERATIONS.md documents every setting, and the run commands keep the socket flags."""

from __future__ import annotations

from pathlib import Path

from app.config import Settings

ROOT = Path(__file__).resolve().parents[2]


def env_names(name: str) -> list[str]:
    field = Settings.model_fields[name]
    alias = field.validation_alias
    choices = getattr(alias, "choices", None)
    if choices:
        return [str(c) for c in choices]
    return [f"UNO_{name.upper()}"]


def test_every_setting_is_documented() -> None:
    text = (ROOT / "docs" / "OPERATIONS.md").read_text()
    missing = [name for name in Settings.model_fields if not any(env in text for env in env_names(name))]
    assert not missing, f"settings missing from docs/OPERATIONS.md: {missing}"


def test_run_commands_cap_frames_and_turn_compression_off() -> None:
    for path in ("scripts/run.sh", "Dockerfile"):
        text = (ROOT / path).read_text()
        assert "--ws-max-size" in text and "--ws-per-message-deflate false" in text, path
