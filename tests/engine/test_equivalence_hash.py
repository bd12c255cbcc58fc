"""bench/engine_equivalence.py's hash over its default 40 random house-rule matches (every edition,
every listing and every event hashed) is the engine's behaviour in one figure: a change of the engine
that moves it changed what some match does.  scripts/test.sh runs this again on the compiled engine,
which must give the very same hash."""

from __future__ import annotations

import hashlib

import pytest

from app.engine import VARIANTS
from tests.bench_scripts import load

# Recorded with the engine as it plays now; a change that moves it says why here and in its commit.
# 661ad2cd…b8f8 until team rounds were scored as HR-27 says (the partner's hand scores for nobody,
# a round's points are what its team was credited): the same 27,051 actions, other round scores.
HASH = "6f7ead3487ddb08d49cca5810d8addc67164c2f9dabaca3f575b00b464cf9310"


@pytest.mark.slow
def test_forty_random_house_rule_matches_hash_as_recorded() -> None:
    bench = load("engine_equivalence")
    digest = hashlib.sha256()
    editions = list(VARIANTS)
    actions = sum(bench.play_match(i, editions[i % len(editions)], 1500, digest) for i in range(40))
    assert actions > 20_000
    assert digest.hexdigest() == HASH
