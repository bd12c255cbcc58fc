"""The bots' next move, planned after the publish on the views it just built.

A bot acts on its own seat's view, exactly what a person there would see.  The publish builds
every present seat's game view once, automated seats' included (``Streams.publish``), and hands
them here: the move is picked on those very views, so nothing is built twice and nothing before
the commit.  A room with no socket to publish to (all bots, or everyone away) builds them here,
once.  The move is a timer that only ``tell``s the inbox, tagged with the table it was planned
on; a stale one is ignored when it arrives (``timer_handlers.on_bot_turn``).
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable, Mapping
from typing import Any

from app.bots import DEFAULT_LEVEL, Bot, make_bot, quickest
from app.config import Settings
from app.engine.house.pace import bot_pause_factor

from .clock import Timer
from .inbox import BotTurn, Message
from .room_state import PLAYING, RoomState
from .room_views import game_views

# Every present seat's game view (None: the spectators'), as ``room_views.game_views`` gives them.
GameViews = Mapping[int | None, Any]


class BotMoves:
    def __init__(self, state: RoomState, settings: Settings, tell: Callable[[Message], None]) -> None:
        self.state = state
        self.settings = settings
        self.tell = tell
        self.rng = random.Random(secrets.randbits(64))
        self.timer = Timer(state.clock)  # the planned move (the tests read it off ``timer.message``)
        # Who plays each automated seat, for the round in ``bots_for`` (a hard bot remembers it).
        self.bots: dict[int, Bot] = {}
        self.bots_for: tuple[int, int] | None = None

    def cancel(self) -> None:
        self.timer.cancel()

    def after_publish(self, games: GameViews | None) -> None:
        """The next bot move: planned once per table state, re-planned whenever it changes.
        ``games``: the views the publish built (None when it built none)."""
        st = self.state
        m = st.match
        if st.status != PLAYING or m is None:
            self.timer.cancel()
            return
        controlled = tuple(p.seat for p in st.players if p.auto)
        key = (st.match_no, m.round_no, len(m.log), controlled)
        if key == self.timer.key:
            return
        self.timer.cancel()
        self.timer.key = key
        if not controlled:
            return
        if games is None or any(seat not in games for seat in controlled):
            games = game_views(st, controlled)  # nobody to publish to: built for the bots alone, once
        # A catch's pause keeps its floor under any scale (app/bots/pauses.py): people get there first.
        best = quickest(((seat, games[seat]) for seat in controlled), self.rng,
                        self.settings.bot_delay_scale * bot_pause_factor(st.house), self.players(controlled))
        if best is not None:
            self.timer.set(key, best[0], self.tell, BotTurn(key, best[1], best[2]))

    def replan(self) -> None:
        """A planned move was refused: the next publish plans afresh on the same table."""
        self.timer.key = None

    def players(self, controlled: tuple[int, ...]) -> dict[int, Bot]:
        """The bot at each automated seat: a bot seat's at its own level, an away person's at the
        default one.  Kept through a round (the hard bot counts its cards), new each round."""
        st = self.state
        m = st.match
        assert m is not None
        if self.bots_for != (st.match_no, m.round_no):
            self.bots, self.bots_for = {}, (st.match_no, m.round_no)
        for seat in controlled:
            p = st.players[seat]
            level = (p.level or DEFAULT_LEVEL) if p.bot else DEFAULT_LEVEL
            if seat not in self.bots or self.bots[seat].level != level:
                self.bots[seat] = make_bot(level)
        return self.bots
