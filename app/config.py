"""Settings from the environment (prefix ``UNO_``), with defaults fit for a local server."""

from __future__ import annotations

from functools import lru_cache

from pydantic import AliasChoices, Field
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="UNO_", env_file=".env", extra="ignore", populate_by_name=True)

    # Storage: DATABASE_URL picks the database; unset, an embedded SQLite file in data_dir.
    database_url: str | None = Field(default=None, validation_alias=AliasChoices("DATABASE_URL", "UNO_DATABASE_URL"))
    data_dir: str = Field(default="data", validation_alias=AliasChoices("UNO_DATA_DIR", "DATA_DIR"))
    db_pool_size: int = 5  # connections are borrowed per write batch, never held by a socket
    db_max_overflow: int = 5

    # Rooms
    max_rooms: int = 10_000  # refuse new rooms beyond this, rather than run out of memory
    room_idle_seconds: float = 1800.0  # a room nobody is connected to or acting in is stopped
    finished_room_seconds: float = 300.0  # a finished match's room lingers this long for a rematch
    sweep_seconds: float = 30.0  # how often the registry looks for rooms to stop
    between_rounds_seconds: float = 20.0  # the next round starts then, or once everyone is ready
    # Per-seat and per-socket bounds
    send_queue_frames: int = 512  # a socket this far behind is closed, never allowed to grow
    replay_frames: int = 256  # state frames kept per seat for reconnects
    action_ids_kept: int = 512  # client action ids remembered per seat (duplicate suppression)
    event_log_kept: int = 60  # public log entries in every view
    private_log_kept: int = 20  # private entries (cards drawn or passed) in a seat's view
    chat_kept: int = 500  # chat messages kept for the room's life (oldest dropped past this)
    chat_max_chars: int = 300
    name_max_chars: int = 24
    message_max_bytes: int = 8192  # larger client frames are refused
    # A trivial /ws/echo WebSocket: bench/load.py's baseline for this stack.  Off unless asked for.
    echo_endpoint: bool = False


@lru_cache
def get_settings() -> Settings:
    return Settings()
