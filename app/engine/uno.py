"""Saying UNO and catching those who did not (C-11, C-12).

These actions are open to every seat, not only to the one a decision waits for: a seat is
*exposed* when its hand comes to hold one card without UNO said, and stays catchable until
the next turn action of anyone.  Who may declare or catch, the refusal when they may not,
and the bookkeeping after every action all live here.
"""

from __future__ import annotations

from .actions import CATCH, DECLARE_UNO, Action
from .errors import IllegalAction, Refusal
from .pending import TURN
from .state import RoundState

DECLARE = Action(DECLARE_UNO)
# Catch actions are built once: legal_actions runs on every step.
CATCHES = tuple(Action(CATCH, target=t) for t in range(16))


def may_declare(rnd: RoundState, seat: int) -> bool:
    """Exposed, or on one's own turn with two cards and UNO not said yet (about to play one).

    The two-card declaration is one of the early ways HR-17 and HR-18 take away (``calls.with_play``)."""
    if seat in rnd.exposed:
        return True
    # The hand's size first: legal_actions asks this of every seat on every step, and two cards are rare.
    return len(rnd.hands[seat]) == 2 and rnd.calls.with_play and early_declaration(rnd, seat)


def early_declaration(rnd: RoundState, seat: int) -> bool:
    """Is ``seat`` on its own turn with two cards, about to play one, UNO not said yet?"""
    p = rnd.pending
    return (p is not None and p.kind == TURN and p.seat == seat and len(rnd.hands[seat]) == 2
            and rnd.predeclared != seat)


def may_catch(rnd: RoundState, seat: int, target: int | None) -> bool:
    teams = rnd.book.teams  # HR-27: not one's partner
    return (target is not None and target != seat and target in rnd.exposed
            and (teams is None or not teams.partners(seat, target)))


def uno_refusal(rnd: RoundState, seat: int, action: Action) -> IllegalAction | None:
    """Why ``seat`` may not declare or catch as ``action`` says; None when it may."""
    is_catch = action.kind == CATCH
    target = action.target if is_catch else seat
    if is_catch:
        if action == Action(CATCH, target=target) and may_catch(rnd, seat, target):
            return None
    elif action == DECLARE and may_declare(rnd, seat):
        return None
    if not rnd.calls.exposes:  # HR-18: no UNO! at all
        return IllegalAction(Refusal.UNO_NOT_ALLOWED, "No UNO! is said or caught at this table.")
    if not is_catch and not rnd.calls.with_play and early_declaration(rnd, seat):  # HR-17
        return IllegalAction(Refusal.UNO_NOT_ALLOWED, "Strict UNO!: declare only once you hold one card.")
    if is_catch:
        if target is None or not 0 <= target < rnd.n or target in rnd.out:  # D-12
            return IllegalAction(Refusal.BAD_TARGET, "Say whom you catch.")
        if target == seat:
            return IllegalAction(Refusal.CANNOT_CATCH_SELF, "You cannot catch yourself; declare UNO instead.")
        if rnd.book.teams is not None and rnd.book.teams.partners(seat, target):  # HR-27
            return IllegalAction(Refusal.CANNOT_CATCH_PARTNER, "You cannot catch your partner.")
    assert target is not None
    if target in rnd.resolved:
        how, by = rnd.resolved[target]
        first = (f"seat {target} declared UNO first" if how == "declared"
                 else f"seat {by} caught seat {target} first")
        return IllegalAction(Refusal.TOO_LATE, f"Too late: {first}.", target=target,
                             by=target if how == "declared" else by,
                             did="declare" if how == "declared" else "catch")
    if not is_catch:
        if rnd.predeclared == seat:
            return IllegalAction(Refusal.ALREADY_DECLARED, "You have already said UNO.")
        return IllegalAction(Refusal.NOTHING_TO_DECLARE,
                             "You can say UNO when you hold one card, or two on your turn.")
    return IllegalAction(Refusal.NOT_EXPOSED, f"Seat {target} cannot be caught now.", target=target)


def declare(rnd: RoundState, seat: int) -> None:
    if seat in rnd.exposed:
        rnd.exposed.remove(seat)
        rnd.declared.add(seat)
        rnd.resolved[seat] = ("declared", seat)
        rnd.emit("uno", {"seat": seat, "with_play": False})
    else:
        rnd.predeclared = seat
        rnd.emit("uno", {"seat": seat, "early": True})


def catch(rnd: RoundState, seat: int, target: int) -> None:
    rnd.exposed.remove(target)
    rnd.resolved[target] = ("caught", seat)
    rnd.emit("caught", {"seat": target, "by": seat})
    rnd.draw(target, rnd.calls.penalty, "caught")  # HR-16: 2, 4 or 6


def update_uno(rnd: RoundState, actor: int, protected: bool) -> None:
    """C-12: exposure arises whenever a hand comes to hold one card, and ends when it doesn't.

    ``protected``: the actor said UNO with the action (or just before it, on their turn).
    """
    hands, exposed, declared = rnd.hands, rnd.exposed, rnd.declared
    for s, before in rnd.touched.items():
        if len(hands[s]) != 1:
            if s in declared or s in exposed:
                exposed.discard(s)
                declared.discard(s)
        elif before != 1 and rnd.calls.exposes:  # HR-18: no one is ever exposed
            rnd.resolved.pop(s, None)
            if s == actor and protected:
                exposed.discard(s)
                declared.add(s)
                rnd.emit("uno", {"seat": s, "with_play": True})
            else:
                declared.discard(s)
                exposed.add(s)
                rnd.emit("exposed", {"seat": s})
