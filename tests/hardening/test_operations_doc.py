"""docs/OPERATIONS.md documents every setting, and the run commands keep the socket flags."""

from __future__ import annotations

from pathlib import Path

import pytest

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


@pytest.mark.slow
def test_run_commands_go_through_the_entry_point() -> None:
    """The frame cap, compression off and the protocol classes are set in one place (app/server.py):
    every run command starts the server through it, none spells uvicorn's flags out again."""
    for name in ("scripts/run.sh", "Dockerfile", "app/cluster/run.py", "bench/abuse.py", "bench/gc_trace.py",
                 "tests/persistence/test_crash_recovery.py"):
        text = (ROOT / name).read_text()
        assert any(way in text for way in ("python -m app serve", '"-m", "app", "serve"', '["serve",')), name
    for path in (*(ROOT / "scripts").glob("*.sh"), ROOT / "Dockerfile", *(ROOT / "bench").glob("*.py"),
                 *(ROOT / "app").rglob("*.py"), *(ROOT / "tests").rglob("*.py")):
        text = path.read_text()
        if path.name in ("server.py", "test_operations_doc.py", "test_entry_point.py"):
            continue
        assert "--ws-max-size" not in text and '"app.main:app"' not in text, path
