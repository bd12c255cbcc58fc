"""Rooms: one asyncio actor per room owning seats, chat and the match; a registry of actors."""
