"""``shuffling.shuffle`` is ``random.Random.shuffle``: the same permutation, the generator left in the same state."""

from __future__ import annotations

import random

import pytest

from app.engine.shuffling import shuffle


@pytest.mark.parametrize("size", [0, 1, 2, 3, 7, 52, 107, 108, 112, 129, 1024, 1500])
def test_shuffle_is_random_shuffle(size: int) -> None:
    for seed in range(40):
        theirs, ours = random.Random(f"{seed}/{size}"), random.Random(f"{seed}/{size}")
        expected, got = list(range(size)), list(range(size))
        theirs.shuffle(expected)
        shuffle(ours, got)
        assert got == expected
        assert ours.getstate() == theirs.getstate()


def test_another_generator_shuffles_its_own_way() -> None:
    class Counting(random.Random):
        def random(self) -> float:
            return super().random()

    theirs, ours = Counting(5), Counting(5)
    expected, got = list(range(60)), list(range(60))
    theirs.shuffle(expected)
    shuffle(ours, got)
    assert got == expected and ours.getstate() == theirs.getstate()
