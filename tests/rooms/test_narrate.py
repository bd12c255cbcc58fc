"""One narrator: the server sends each event's kind and data, the browser words every kind.

Log entries carry no English ``text``: static/js/narrate.js words them in the reader's
language.  These tests hold the two sides together: every kind the engine or the room can
put in a log is handled by narrate.js, every catalogue key the narrator and the error
wording use exists in all four catalogues, and every error code the server can send has
words in all four.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from app.engine import MatchConfig, Refusal, apply, legal_actions, new_match, start_next_round
from app.engine.house import HouseRules
from app.rooms.narrate import scrub

ROOT = Path(__file__).resolve().parents[2]
LANGS = ("en", "pl", "sl", "gl")
CATALOGUES = {lang: json.loads((ROOT / f"static/i18n/{lang}.json").read_text()) for lang in LANGS}
NARRATE_JS = (ROOT / "static/js/narrate.js").read_text()
ERRORS_JS = (ROOT / "static/js/errors.js").read_text()
LOGBOOK_JS = (ROOT / "static/js/logbook.js").read_text()


def narrated_kinds() -> set[str]:
    """The kinds narrate.js words: the keys of its WORDS table."""
    start = NARRATE_JS.index("const WORDS = {")
    table = NARRATE_JS[start:NARRATE_JS.index("\n};", start)]
    return set(re.findall(r"^  (\w+): \(", table, re.M))


def engine_event_kinds() -> set[str]:
    """Every event kind random games of every edition emit, house rules on and off."""
    seen: set[str] = set()
    houses = [HouseRules(), HouseRules(stacking=True, seven_o=True, jump_in=True, draw_until_playable=True)]
    for edition in ("classic", "mario_kart", "all_wild", "pocket_pizza"):
        for house in houses:
            for seed in range(5):
                rng = random.Random(seed)
                match, events = new_match(MatchConfig(edition, 4, target=1, house=house), seed)
                while True:
                    for ev in events:
                        seen.add(ev.kind)
                        assert "'id'" not in repr(scrub(ev.data))  # log entries keep no card ids
                    if match.phase == "over":
                        break
                    if match.phase == "between":
                        events = start_next_round(match)
                        continue
                    seat = match.round.pending.seat  # type: ignore[union-attr]
                    legal = legal_actions(match, seat)
                    # Mostly a card when one may be played: drawing at random makes rounds very long.
                    plays = [a for a in legal if a.kind not in ("draw", "keep")]
                    events = apply(match, seat, rng.choice(plays if plays and rng.random() < 0.85 else legal))
    # Kinds random play from the pending seat rarely reaches (a jump-in is another seat's move).
    for path in (ROOT / "app/engine").rglob("*.py"):
        seen |= set(re.findall(r"(?:emit|Event)\(\s*\"(\w+)\"", path.read_text()))
    return seen


def room_note_kinds() -> set[str]:
    """The kinds of the room's own log notes (joins, leaves, races...), from app/rooms."""
    kinds: set[str] = set()
    for path in (ROOT / "app/rooms").glob("*.py"):
        text = path.read_text()
        for first, other in re.findall(r"\.note\(\s*\"(\w+)\"(?: if .*? else \"(\w+)\")?", text):
            kinds |= {first, other} - {""}
    return kinds


def test_every_kind_the_server_logs_is_worded_by_the_client() -> None:
    engine = engine_event_kinds()
    assert {"play", "draw", "drew", "round_over", "match_over", "item", "swap", "uno", "caught",
            "jump_in", "hands_passed"} <= engine
    notes = room_note_kinds()
    assert {"joined", "left", "kicked", "renamed", "uno_race", "takeover", "returned", "host"} <= notes
    missing = (engine | notes) - narrated_kinds()
    assert not missing, f"narrate.js has no words for {sorted(missing)}"


def test_every_key_the_narrator_uses_is_in_every_catalogue() -> None:
    sources = NARRATE_JS + ERRORS_JS + LOGBOOK_JS
    keys = set(re.findall(r"\bt\(\"([\w.]+)\"", sources))
    # Keys built from a kind (`ev.${...}`): the ternaries and tables name them literally.
    keys |= set(re.findall(r"\"((?:ev|err|race|fair)\.[\w.]+)\"", sources))
    assert {"ev.jump_in", "ev.hands_passed_cw", "ev.kicked", "ev.left", "ev.renamed", "err.too_late_declared",
            "ev.drew_why", "fair.sealed", "race.caught_first"} <= keys
    for lang, cat in CATALOGUES.items():
        assert not keys - set(cat), (lang, sorted(keys - set(cat)))


def test_the_catalogues_have_the_same_keys_and_placeholders() -> None:
    en = CATALOGUES["en"]
    for lang in ("pl", "sl", "gl"):
        cat = CATALOGUES[lang]
        assert set(cat) == set(en), (lang, sorted(set(en) ^ set(cat)))
        for key, text in en.items():
            assert set(re.findall(r"\{\w+\}", cat[key])) == set(re.findall(r"\{\w+\}", text)), (lang, key)


def server_error_codes() -> set[str]:
    """Every error code the server can send: room refusals, engine refusals and config errors,
    the transport's frame errors and the HTTP layer's, read from the source."""
    codes = {str(r) for r in Refusal}
    patterns = [
        r"(?:RoomError|ConfigError|BadMessage)\(\s*\"(\w+)\"",
        r"RoomError\(\"\w+\" if .*? else \"(\w+)\"",
        r"\"code\": \"(\w+)\"",
        r"send_error\(send, \d+, \"(\w+)\"",
        r"refuse\(conn, \w+, \"(\w+)\"",
        r"\(\(\"(\w+)\", \"[A-Z]",  # the actor's (code, message) pairs
        r"else \(\"(\w+)\", \"[A-Z]",
        r"_error\(\d+, \"(\w+)\"",  # the players' routes (app/web/players.py)
        r"\bcode=\"(\w+)\"",  # a house option's own refusal code, declared with it (house/options.py)
    ]
    for path in (ROOT / "app").rglob("*.py"):
        text = path.read_text()
        for pattern in patterns:
            codes |= set(re.findall(pattern, text))
    return codes


def test_every_error_code_the_server_can_send_has_words_in_every_catalogue() -> None:
    codes = server_error_codes()
    # The sweep finds the codes of every layer (a sample of each, so a broken pattern fails here).
    assert {"too_late", "not_your_turn", "name_taken", "room_finished", "spectator", "not_seated", "bad_json",
            "too_many_sockets", "body_too_large", "no_match", "match_not_finished", "bad_rounds", "rate_limited",
            "server_full", "bad_edition"} <= codes
    for lang, cat in CATALOGUES.items():
        missing = sorted(c for c in codes if f"err.{c}" not in cat)
        assert not missing, f"{lang}.json has no words for error codes {missing}"


@pytest.mark.parametrize("lang", LANGS)
def test_no_catalogue_keeps_the_old_wording(lang: str) -> None:
    cat = CATALOGUES[lang]
    # The challenge text must not suggest that any other playable card makes a Wild Draw Four illegal
    # (CL-5: only a card of the colour it replaced; MK-4: or an Item Box).
    assert "could have played another card" not in cat["dialog.challenge_wd4"]
    assert "{colour}" in cat["dialog.challenge_wd4"] and "{colour}" in cat["dialog.challenge_wd4_mk"]
    assert "{n}" in cat["stack.coming"] and "{n}" in cat["stack.or_take"] and "{n}" in cat["dialog.take_cards"]
    if lang == "pl":
        assert "Stosowanie" not in json.dumps(cat, ensure_ascii=False)
    if lang == "gl":
        assert "pts" not in cat["summary.total"]
