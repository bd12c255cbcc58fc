"""The whole database schema: every table's model, for Alembic and the schema checks.

The tables are declared in two modules (the rooms' and matches' in ``models``, the players' in
``player_models``, which builds on the first); this one puts them together without either
importing the other back.
"""

from __future__ import annotations

from . import player_models
from .models import Base

metadata = Base.metadata  # both modules' tables, now that both are imported

__all__ = ["metadata", "player_models"]
