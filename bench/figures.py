"""Small helpers for the benchmarks' figures: progress lines on stderr (the last line on stdout
is the JSON), a percentile and a median rounded to the millisecond.
"""

from __future__ import annotations

import statistics
import sys


def log(*parts: object) -> None:
    print(*parts, file=sys.stderr, flush=True)


def pct(values: list[float], q: float) -> float | None:
    if not values:
        return None
    s = sorted(values)
    return round(s[min(len(s) - 1, int(len(s) * q))], 3)


def med(values: list[float]) -> float | None:
    return round(statistics.median(values), 3) if values else None
