"""RFC 6902 JSON Patch between two views — a fast, view-shaped differ.

``jsonpatch.make_patch`` spends most of its time serialising list members to find moves;
that cost was several milliseconds per seat per action.  Views change in a few shapes
only — a scalar changes, a hand loses or gains a card, a log drops old lines and appends
new ones — so this differ trims equal heads and tails of lists (Python's ``==`` on shared
objects is nearly free) and recognises the log's shift, emitting only ``add``, ``remove``
and ``replace``; a card (an object with a ``face``) is one value, replaced whole when it is
another card.  Any output is a valid patch; the desync tests check it over many games.
"""

from __future__ import annotations

from typing import Any

MAX_SHIFT = 16  # how many dropped list heads to look for before falling back to replaces


def _esc(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1")


def make_patch(old: Any, new: Any, memo: dict[Any, Any] | None = None) -> list[dict[str, Any]]:
    """The ops from ``old`` to ``new``.  Several seats' views share parts (``room_views.seat_views``):
    pass one ``memo`` to every call of a round of diffs and each shared pair of objects is
    compared once.  It keys on identity, and holds the objects it keys on so none is reused."""
    ops: list[dict[str, Any]] = []
    diff_at(old, new, "", ops, memo)
    return ops


def diff_at(a: Any, b: Any, path: str, ops: list[dict[str, Any]], memo: dict[Any, Any] | None = None) -> None:
    """The ops from ``a`` to ``b`` at ``path``, appended to ``ops`` (``make_patch`` of one part of a view)."""
    if a is b:
        return
    ta, tb = type(a), type(b)
    if (ta is dict and tb is dict) or (ta is list and tb is list):
        containers = _diff_dict if ta is dict else _diff_list
        if memo is None:
            containers(a, b, path, ops, memo)
            return
        key = (id(a), id(b), path)
        hit = memo.get(key)
        if hit is not None:
            ops.extend(hit[2])
            return
        start = len(ops)
        containers(a, b, path, ops, memo)
        memo[key] = (a, b, ops[start:])
        return
    # Scalars (and type changes): bool is not int, 1 is not 1.0 — compare types as JSON would.
    if ta is not tb or a != b:
        ops.append({"op": "replace", "path": path, "value": b})


def _diff_dict(a: dict[str, Any], b: dict[str, Any], path: str, ops: list[dict[str, Any]],
               memo: dict[Any, Any] | None) -> None:
    if a == b:
        return
    if "face" in b and "face" in a:
        # A card is one value: another card on the pile replaces it whole (one op, not one per field).
        ops.append({"op": "replace", "path": path, "value": b})
        return
    for k in a:
        if k not in b:
            ops.append({"op": "remove", "path": f"{path}/{_esc(k)}"})
    for k, v in b.items():
        if k not in a:
            ops.append({"op": "add", "path": f"{path}/{_esc(k)}", "value": v})
            continue
        av = a[k]
        if av is v or (type(av) is type(v) and av == v):
            continue
        diff_at(av, v, f"{path}/{_esc(k)}", ops, memo)


def _diff_list(a: list[Any], b: list[Any], path: str, ops: list[dict[str, Any]],
               memo: dict[Any, Any] | None) -> None:
    if a == b:
        return
    n, m = len(a), len(b)
    head = 0
    while head < n and head < m and a[head] == b[head]:
        head += 1
    tail = 0
    while tail < n - head and tail < m - head and a[n - 1 - tail] == b[m - 1 - tail]:
        tail += 1
    old = a[head:n - tail]
    new = b[head:m - tail]
    # A bounded log: some lines dropped from the front, new ones appended.
    first = new[0] if new else None
    for drop in range(1, min(len(old), MAX_SHIFT) + 1):
        kept = len(old) - drop
        # One entry compared before two slices are: most lists (hands, legal moves) never shift.
        if 0 < kept <= len(new) and old[drop] == first and old[drop:] == new[:kept]:
            for _ in range(drop):
                ops.append({"op": "remove", "path": f"{path}/{head}"})
            for i, v in enumerate(new[kept:]):
                ops.append({"op": "add", "path": f"{path}/{head + kept + i}", "value": v})
            return
    common = min(len(old), len(new))
    for i in range(common):
        diff_at(old[i], new[i], f"{path}/{head + i}", ops, memo)
    for _ in range(len(old) - common):
        ops.append({"op": "remove", "path": f"{path}/{head + common}"})
    for i in range(common, len(new)):
        ops.append({"op": "add", "path": f"{path}/{head + i}", "value": new[i]})
