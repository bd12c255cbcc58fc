"""What this process holds in memory for the pages and limits, by cache (``GET /metrics``:
``uno_cache_entries`` and ``uno_cache_bytes``), so that a long run can tell a bounded cache from
a growing one (bench/soak.py samples them with the server's memory).

Players and ratings keep no copy in memory: a cookie's player is read by its secret's index on
each request, ratings and standings are read and written in the settling transaction.  What is
held is the finished matches' built documents (bounded by ``UNO_MATCH_CACHE_BYTES``), the QR
codes drawn, the lobby's pages, and the limits' windows per address (bounded in addresses).
"""

from __future__ import annotations

from typing import Any


def _window_keys(window: Any) -> int:
    """Addresses a limit's window (app/web/limits.py ``Window``) holds."""
    seen = getattr(window, "seen", None)
    return len(seen.by_key) + len(window.refused) if seen is not None else 0


def cache_sizes(state: Any) -> dict[str, tuple[int, int | None]]:
    """Each cache's entries and, where it counts them, bytes (None: not counted)."""
    out: dict[str, tuple[int, int | None]] = {}
    builds = getattr(state, "match_builds", None)
    if builds is not None:
        out["match_builds"] = (len(builds.cache), builds.cache_bytes)
        out["match_builds_plain"] = (len(builds.plain), builds.plain_bytes)
        out["match_builds_too_large"] = (len(builds.too_large), None)
        out["match_builds_waiting"] = (len(builds.waiting) + len(builds.tasks), None)
    qr = getattr(state, "qr_codes", None)
    if qr is not None:
        out["qr_codes"] = (len(qr.images), sum(len(image) for image in qr.images.values()))
    pages = getattr(state, "lobby_pages", None)
    if pages is not None:
        out["lobby_pages"] = (len(pages.pages), sum(len(page) for page in pages.pages.values()))
    new_players = getattr(state, "new_players", None)
    if new_players is not None:
        out["new_player_windows"] = (_window_keys(new_players.window), None)
    misses = getattr(state, "room_misses", None)
    if misses is not None and hasattr(misses, "window"):
        out["room_miss_windows"] = (_window_keys(misses.window), None)
    return out
