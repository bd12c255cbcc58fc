"""Settings from the environment (prefix ``UNO_``), with defaults fit for a local server."""

from __future__ import annotations

import ipaddress
from functools import lru_cache

from pydantic import AliasChoices, Field, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="UNO_", env_file=".env", extra="ignore", populate_by_name=True)

    # Storage: DATABASE_URL picks the database; unset, an embedded SQLite file in data_dir.
    database_url: str | None = Field(default=None, validation_alias=AliasChoices("DATABASE_URL", "UNO_DATABASE_URL"))
    data_dir: str = Field(default="data", validation_alias=AliasChoices("UNO_DATA_DIR", "DATA_DIR"))
    db_pool_size: int = 5  # connections are borrowed per write batch, never held by a socket
    db_max_overflow: int = 5

    # Where the server listens (``python -m app serve --host/--port`` override these).
    host: str = Field(default="127.0.0.1", validation_alias=AliasChoices("HOST", "UNO_HOST"))
    port: int = Field(default=8000, validation_alias=AliasChoices("PORT", "UNO_PORT"))
    # Reverse proxies whose X-Forwarded-For is believed (comma-separated addresses or networks,
    # "*" for any): anyone can send the header, so none unless set.  They are held to the global
    # connection cap only (they carry every client's connections: app/transport/gate.py).
    trusted_proxies: str = ""
    # WebSocket frames over this many bytes are refused by the protocol layer (the app refuses
    # messages over message_max_bytes, below it).
    ws_max_size: int = 16_384

    # Rooms
    max_rooms: int = 10_000  # refuse new rooms beyond this, rather than run out of memory
    room_idle_seconds: float = 1800.0  # a room no seat is connected to or acting in is stopped
    # A waiting room none of whose seats has had a socket for this long is stopped, whatever
    # else happens in it (spectators, lookups): an unplayed room must not be held for ever.
    waiting_room_idle_seconds: float = 300.0
    rooms_per_address: int = 20  # live rooms created from one client address (restored rooms not counted)
    finished_room_seconds: float = 300.0  # a finished match's room lingers this long for a rematch
    sweep_seconds: float = 30.0  # how often the registry looks for rooms to stop
    between_rounds_seconds: float = 20.0  # the next round starts then, or once everyone is ready
    rematch_countdown_seconds: float = 10.0  # the host's rematch starts then, or once everyone is ready
    # Per-seat and per-socket bounds
    send_queue_frames: int = 512  # a socket this far behind is closed, never allowed to grow
    send_queue_chars: int = 1_048_576  # ... or this much text behind (frames differ in size a hundredfold)
    replay_frames: int = 256  # state frames kept per seat for reconnects ...
    replay_chars: int = 8_192  # ... up to this much text (a snapshot beyond it is no bigger)
    action_ids_kept: int = 64  # client message ids remembered per seat (duplicate suppression)
    event_log_kept: int = 60  # public log entries in every view
    private_log_kept: int = 20  # private entries (cards drawn or passed) in a seat's view
    chat_kept: int = 500  # chat messages kept for the room's life (oldest dropped past this)
    chat_max_chars: int = 300
    reaction_burst: int = 3  # reactions one sender may send within the window below ...
    reaction_window_seconds: float = 5.0  # ... (a fixed set of emotes, never stored)
    name_max_chars: int = 24
    message_max_bytes: int = 8192  # larger client frames are refused
    # The cyclic garbage collector never runs on allocation; a full pass is tried this often, and
    # made only while the heap is small enough for a short one (app/gc_policy.py).  0 leaves
    # CPython's collector as it is.
    gc_full_seconds: float = 900.0
    # Resident memory beyond start-up's past which a full pass is made anyway, however long
    # (app/gc_policy.py); 0: no ceiling.
    gc_ceiling_mib: int = 1024
    # A trivial /ws/echo WebSocket: bench/load.py's baseline for this stack.  Off unless asked for.
    echo_endpoint: bool = False

    # The address friends open to join (e.g. https://uno.example.org behind a proxy, or
    # http://192.168.1.20:8000 on a home network); empty: the address the host's browser used.
    public_url: str = ""
    # Without a public_url, invite links are built from the request's Host only when it is
    # localhost, an IP address, this machine's name, or one of these (comma-separated;
    # "*.example.org" for its subdomains, "*" for any well-formed name).
    allowed_hosts: str = ""
    qr_per_minute: int = 10  # invite QR codes (/rooms/{code}/qr.svg) per client address (a page load asks once)

    # Abuse limits (hardening)
    allowed_origins: str = Field(default="", validation_alias=AliasChoices("ALLOWED_ORIGINS", "UNO_ALLOWED_ORIGINS"))
    socket_rate_messages: int = 100  # messages a socket may send per window (lichess: 100 per 20 s)
    socket_rate_window_s: float = 20.0
    http_body_max_bytes: int = 16_384  # larger request bodies are refused with 413
    spectators_per_room: int = 50  # watchers of one room beyond this are refused (4429)
    # Watchers of one room from one client address (4430 past it): else one address fills the room's cap.
    spectators_per_address: int = 4
    # A room with a spectator delay holds their frames back: at most this many (and this much
    # text) per room; past it, newer changes merge into the newest frame held back.
    spectator_lag_frames: int = 128
    spectator_lag_chars: int = 262_144
    watchers_coalesce_seconds: float = 1.0  # the watcher count is published at most this often
    sockets_per_address: int = 200  # game sockets one client address may hold open at once (4429 past it)
    socket_opens_per_minute: int = 120  # game sockets one client address may open a minute (HTTP 429 past it)
    # Connections at the TCP level (app/transport/gate.py), before any request is read: each
    # holds a file descriptor, and 20,000 that never sent a request once took them all.
    header_timeout_s: float = 10.0  # a connection's request (headers and body) must be in within this
    connections_per_address: int = 300  # open connections, HTTP and WebSocket, from one client address
    max_connections: int = 10_000  # in all; never more than the open-file limit less a reserve
    accepts_per_turn: int = 32  # connections accepted per turn of the event loop (app/transport/accept.py)
    # Every HTTP request but /healthz, per client address, on each node (app/web/budget.py): a burst
    # (a few page loads at once), then a steady rate.  0 turns it off.
    http_requests_per_minute: int = 1200
    http_requests_burst: int = 600
    create_rooms_per_minute: int = 20  # per client address
    joins_per_minute: int = 60  # per client address
    room_misses_per_minute: int = 30  # unknown room codes asked for (HTTP or socket) per address; then 429 / 1008
    room_lists_per_minute: int = 120  # GET /api/rooms per client address (the lobby polls every 3 s)
    lobby_cache_seconds: float = 1.0  # the public room list is rebuilt at most this often
    # A finished match's export and replay (app/web/match_builds.py): built once, kept gzipped.
    match_downloads_per_minute: int = 60  # GET /api/matches/{id}/export or /replay per client address
    match_max_actions: int = 20_000  # a match longer than this is not built (match_too_large)
    match_max_bytes: int = 67_108_864  # ... nor one whose document would be larger than this, uncompressed
    match_builds_at_once: int = 1  # builds running at once, each in a worker process of its own
    match_builds_waiting: int = 16  # different matches waiting for a build; past it 503 match_builds_busy
    match_cache_bytes: int = 33_554_432  # gzipped builds kept in memory (the database keeps them all)
    # Sending them (app/web/download_budget.py), per process: documents sent at once (429
    # match_downloads_busy past it; a 304 costs nothing), and the bytes a second all of them
    # together may send, a piece at a time, so that a flood of downloads leaves the loop to the rooms.
    match_downloads_at_once: int = 8
    match_download_bytes_per_second: int = 16_777_216

    # Players remembered without accounts (app/web/players.py, docs/STATS.md)
    player_code_seconds: float = 300.0  # a code moving a player to another browser is valid this long, once
    player_codes_per_minute: int = 5  # codes made (POST /api/me/codes) per client address
    player_claims_per_minute: int = 10  # codes tried (POST /api/me/claim) per client address
    leaderboard_size: int = 20  # players on a page of an edition's leaderboard (at most 50)
    # GET /api/players/... and /api/leaderboard/... per client address (a player's page asks 2-3 times)
    player_reads_per_minute: int = 120
    leaderboard_min_matches: int = 3  # rated matches a player needs to be on it ...
    leaderboard_min_opponents: int = 2  # ... against at least this many different players
    # What keeps one person from farming a rating (app/persistence/farm_guard.py, docs/STATS.md);
    # 0 turns one off.
    new_players_per_hour: int = 6  # players made (a join without a player, POST /api/me) per client address
    rating_instant_share: float = 0.5  # a seat with more of its moves sent within 150 ms is not by hand
    rating_after_matches: int = 1  # counted matches a player finishes before one of theirs is rated
    rating_first_day_matches: int = 2  # ... and how many of theirs are rated in the 24 hours after the first
    rating_pair_limit: int = 5  # matches the same two players are rated together in 24 hours

    # Players who aren't there (bots, clocks, takeover)
    # Tests only: a pseudo-language `xx` (?lang=xx) whose every string is English wrapped in ⟦…⟧,
    # so a test can find any text on a page that did not come from the catalogue.
    pseudo_locale: bool = False
    bot_delay_scale: float = 1.0  # multiplies the bots' human-like pauses (tests set it near 0)
    away_grace_seconds: float = 30.0  # default grace before a bot plays for a disconnected seat

    # Several nodes behind nginx, sharing one Postgres (app/cluster, docs/SCALING.md).  Off: one
    # process owns every room in its database, as on a single machine.
    cluster: bool = False
    node_id: str = ""  # empty: a fresh random id each start
    node_address: str = ""  # host:port where nginx reaches this node; empty: this host's address and port
    lease_seconds: float = 5.0  # a node that has not renewed its lease for this long is dead
    lease_renew_seconds: float = 1.0
    takeover_batch: int = 200  # rooms of dead nodes one node takes over per pass

    # Who may read GET /metrics: comma-separated addresses or networks (CIDR), by the client's
    # address as the server sees it; "*": anyone.  Loopback only unless told otherwise.
    metrics_allow: str = "127.0.0.0/8,::1"

    @field_validator("metrics_allow", "trusted_proxies")
    @classmethod
    def _networks(cls, value: str) -> str:
        networks_of(value)  # a bad entry stops the server at start, not at the first request
        return value

    @property
    def origins(self) -> list[str]:
        return [o.strip().rstrip("/") for o in self.allowed_origins.split(",") if o.strip()]


@lru_cache
def networks_of(value: str) -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...] | None:
    """``UNO_METRICS_ALLOW`` (or ``UNO_TRUSTED_PROXIES``) parsed: its networks, or None for "*" (anyone)."""
    entries = [e.strip() for e in value.split(",") if e.strip()]
    if "*" in entries:
        return None
    return tuple(ipaddress.ip_network(e, strict=False) for e in entries)


@lru_cache
def get_settings() -> Settings:
    return Settings()
