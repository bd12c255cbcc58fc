"""The leak audit itself catches a leak (so its silence in the random games means something)."""

from __future__ import annotations

import json
import secrets

from app.engine import HouseRules, MatchConfig, new_match
from app.rooms.room_state import Player, RoomState
from app.rooms.room_views import view_for
from tests.frame_audit import FrameAudit


def state(seed: int | str = 1) -> RoomState:
    st = RoomState(code="TEST2345", edition="classic", public=True, max_seats=3, target=None, name="t")
    st.players = [Player(f"P{i}", f"h{i}", i) for i in range(3)]
    st.match, events = new_match(MatchConfig("classic", 3), seed=seed)
    st.record(events)
    return st


def test_own_view_passes_and_someone_elses_hand_is_caught__C_16() -> None:
    st = state()
    for seat in (0, 1, 2, None):
        frame = {"type": "snapshot", "seq": 1, "view": view_for(st, seat)}
        assert FrameAudit.check(seat, json.loads(json.dumps(frame)), st) == []
    assert st.match is not None
    other_card = st.match.variant.card_json[st.match.round.hands[1][0]]
    leak = {"type": "patch", "seq": 2, "ops": [{"op": "add", "path": "/x", "value": other_card}]}
    assert FrameAudit.check(0, leak, st)
    assert FrameAudit.check(None, leak, st)
    legal_leak = {"type": "patch", "seq": 2, "ops": [{"op": "add", "path": "/y", "value": {
        "kind": "play", "card": st.match.round.hands[2][0]}}]}
    assert FrameAudit.check(1, legal_leak, st)
    private = {"type": "patch", "seq": 2, "ops": [{"op": "add", "path": "/private/0", "value": {
        "n": 1, "kind": "drew", "text": "You drew red 5.", "seat": 2, "cards": []}}]}
    assert FrameAudit.check(0, private, st) and not FrameAudit.check(2, private, st)


def test_the_round_secret_is_caught_until_the_round_ends() -> None:
    st = state(secrets.token_hex(16))
    assert st.match is not None
    secret = st.match.round_secret(1)
    frame = {"type": "snapshot", "seq": 1, "view": view_for(st, 0)}
    assert secret not in json.dumps(frame) and view_for(st, 0)["room"]["commitment"]
    leak = {"type": "patch", "seq": 2, "ops": [{"op": "add", "path": "/summary", "value": {"secret": secret}}]}
    assert any("secret" in p for p in FrameAudit.check(0, leak, st))
    assert any("secret" in p for p in FrameAudit.check(None, leak, st))


def test_an_open_hand_passes_and_a_closed_one_is_still_caught__HR_31__HX_15() -> None:
    """The audit allows another seat's card only while that seat's hand is open (HR-31), at that moment."""
    st = state()
    st.match, _ = new_match(MatchConfig("classic", 3, house=HouseRules(reveal_hands_at=3)), seed=1)
    rnd = st.match.round
    rnd.discard[:0] = rnd.hands[1][3:]  # seat 1 down to 3 cards: open; seat 2 keeps its 7: hidden
    del rnd.hands[1][3:]
    cards = st.match.variant.card_json
    shown = [cards[c] for c in rnd.hands[1]]
    frame = {"type": "patch", "seq": 2, "ops": [{"op": "add", "path": "/x", "value": shown}]}
    assert FrameAudit.check(0, frame, st) == [] and FrameAudit.check(None, frame, st) == []
    closed = {"type": "patch", "seq": 2, "ops": [{"op": "add", "path": "/x", "value": cards[rnd.hands[2][0]]}]}
    assert FrameAudit.check(0, closed, st) and FrameAudit.check(None, closed, st)
    rnd.hands[1].extend(rnd.draw_pile[:1])  # 4 cards: closed again, and its cards with it
    del rnd.draw_pile[:1]
    assert FrameAudit.check(0, frame, st)


def test_a_face_down_card_is_caught_even_in_its_holders_frame__HR_33__HX_15() -> None:
    """Under blind draw the audit flags a face-down card's face sent to anyone, its holder included,
    until it turns up; the holder's own view, which counts it, passes."""
    st = state()
    st.match, events = new_match(MatchConfig("classic", 3, house=HouseRules(blind_draw=True)), seed=1)
    st.record(events)
    rnd = st.match.round
    drawn = rnd.draw(1, 1, "caught")[0]  # as a catch would: face down for seat 1
    assert drawn in rnd.face_down.by_seat[1]
    for seat in (0, 1, 2, None):
        frame = {"type": "snapshot", "seq": 1, "view": view_for(st, seat)}
        assert FrameAudit.check(seat, json.loads(json.dumps(frame)), st) == []
    assert view_for(st, 1)["game"]["table"]["face_down"] == 1
    leak = {"type": "patch", "seq": 2, "ops": [{"op": "add", "path": "/x", "value": rnd.card_json(drawn)}]}
    assert FrameAudit.check(1, leak, st) and FrameAudit.check(0, leak, st) and FrameAudit.check(None, leak, st)
    turned = {"type": "patch", "seq": 2, "ops": [{"op": "add", "path": "/private/0", "value": {
        "n": 9, "kind": "turned_up", "seat": 1, "cards": []}}]}
    assert FrameAudit.check(0, turned, st) and not FrameAudit.check(1, turned, st)
    rnd.face_down.by_seat[1].clear()  # turned up: now its holder may see it
    assert FrameAudit.check(1, leak, st) == []


def test_a_face_down_card_in_an_open_hand_is_caught_for_everyone_its_holder_included__D_13__HR_31__HR_33() -> None:
    """D-13: inside an open hand (HR-31) a face-down card (HR-33) shows to all as a face-down card
    only: the audit flags its face sent to anyone, and passes every view, which counts it in
    ``open_face_down``; once it is up, the open hand may show it to all."""
    st = state()
    st.match, events = new_match(MatchConfig("classic", 3, house=HouseRules(blind_draw=True, reveal_hands_at=3)),
                                 seed=1)
    st.record(events)
    rnd = st.match.round
    rnd.discard[:0] = rnd.hands[1][2:]  # seat 1 down to 2 cards...
    del rnd.hands[1][2:]
    drawn = rnd.draw(1, 1, "caught")[0]  # ... and 3 with a card drawn face down: an open hand
    assert drawn in rnd.face_down.by_seat[1]
    for seat in (0, 1, 2, None):
        frame = json.loads(json.dumps({"type": "snapshot", "seq": 1, "view": view_for(st, seat)}))
        assert FrameAudit.check(seat, frame, st) == [], seat
        assert frame["view"]["game"]["table"]["open_face_down"][1] == 1
    leak = {"type": "patch", "seq": 2, "ops": [{"op": "add", "path": "/x", "value": rnd.card_json(drawn)}]}
    for seat in (0, 1, 2, None):
        assert FrameAudit.check(seat, leak, st), seat
    rnd.face_down.by_seat[1].clear()  # turned up: the open hand shows it to all
    for seat in (0, 1, 2, None):
        assert FrameAudit.check(seat, leak, st) == [], seat


def test_a_screen_frame_is_held_to_the_public_table_as_it_is_now__D_14() -> None:
    """A screen's frame passes only as the spectators' view of the room now: a seat's view (its hand,
    its private log) and a stale public view (a spectator's delayed one) are both caught."""
    st = state()
    public = view_for(st, None)
    fine = {"type": "snapshot", "seq": 1, "view": json.loads(json.dumps(public))}
    assert FrameAudit.check_screen(None, fine, public, st) == []
    seat_view = view_for(st, 0)
    as_seat = {"type": "snapshot", "seq": 1, "view": json.loads(json.dumps(seat_view))}
    assert FrameAudit.check_screen(None, as_seat, seat_view, st)
    assert FrameAudit.check_screen(0, fine, public, st)
    stale = {**public, "room": {**public["room"], "watchers": 7}}
    assert FrameAudit.check_screen(None, {"type": "patch", "seq": 2, "ops": []}, stale, st)
