"""House rules (RULES.md §6, §7): room options beyond the sheets, every one off by default.

``options.py`` is the typed set of options — each field declared once with everything about it
(``declare.py``), in its family's module (§6's in ``room.py``) — its checks (HX-1, the editions'
refusals, D-1, D-2) and the presets (HR-34).  What each family of options does lives in its module
too, hooked into the engine as the editions are: each plugs its hooks into a table's ``Rulebook``
(``app/engine/rulebook.py``), which ``rulebook.py`` here assembles (docs/ENGINE.md lists them).
"""

from .options import AVAILABLE, DEFAULTS, OPTIONS, PRESETS, SPECS, EditionLimits, HouseRules

__all__ = ["AVAILABLE", "DEFAULTS", "OPTIONS", "PRESETS", "SPECS", "EditionLimits", "HouseRules"]
