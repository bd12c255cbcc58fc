"""HR-34 presets: named sets of house rules (RULES.md §7.12), as data.

A preset expands first; the keys sent with it override it (D-2).  Every value not listed
stays at its default.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

PRESETS: Mapping[str, Mapping[str, object]] = MappingProxyType({
    "classic": {},
    "party": {"stacking": True, "seven_o": True, "jump_in": True, "draw_until_playable": True},
    "strict": {"strict_uno": True, "uno_penalty": 4, "misplay_penalty": True, "no_hints": True,
               "forced_play": True},
    "chaos": {"stacking": True, "cross_stack": "both", "reverse_deflect": "all", "skip_deflect": "all",
              "seven_o": True, "jump_in": True, "multi_play": True, "draw_until_playable": True,
              "must_play_drawn": True, "double_score": True, "no_challenge": True},
    "quick": {"single_round": True, "multi_play": True, "forced_play": True, "blitz_seconds": 300},
})
