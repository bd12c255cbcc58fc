"""RLCard's UNO engine under random legal play, for a side-by-side figure.

RLCard is not a project dependency: run this with a Python that has it, e.g.
``python -m venv /tmp/rl && /tmp/rl/bin/pip install rlcard`` then
``/tmp/rl/bin/python bench/rlcard_uno.py --seconds 5``.  Prints JSON as its last line.
"""

from __future__ import annotations

import argparse
import json
import random
import time


def main() -> None:
    import numpy as np
    from rlcard.games.uno.game import UnoGame

    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--players", type=int, default=2)
    args = parser.parse_args()
    game = UnoGame(allow_step_back=False, num_players=args.players)
    rng = random.Random(1)
    rounds = actions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < args.seconds:
        game.np_random = np.random.RandomState(rounds)
        game.init_game()
        while not game.is_over():
            game.step(rng.choice(game.get_legal_actions()))
            actions += 1
        rounds += 1
    elapsed = time.perf_counter() - start
    print(json.dumps({"rounds_per_s": round(rounds / elapsed, 1), "actions_per_s": round(actions / elapsed),
                      "actions_per_round": round(actions / rounds, 1)}))


if __name__ == "__main__":
    main()
