"""The four editions, by key."""

from __future__ import annotations

from .all_wild import AllWild
from .base import Variant
from .classic import Classic
from .mario_kart import MarioKart
from .pocket_pizza import PocketPizza

VARIANTS: dict[str, Variant] = {v.key: v for v in (Classic(), MarioKart(), AllWild(), PocketPizza())}

__all__ = ["VARIANTS", "Variant"]
