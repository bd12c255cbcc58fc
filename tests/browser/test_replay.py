"""A finished match on its page: the replay move by move, a shared link to a move, and the
fairness check run in the browser (the engine's own Python, in Pyodide) — in four languages."""

from __future__ import annotations

import asyncio
import json
import re
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, BrowserContext, ConsoleMessage, Page, expect

from tests.live import LiveServer
from tests.web.test_export import three_rounds

LANGUAGES = ("en", "pl", "sl", "gl")
STATIC = Path(__file__).resolve().parents[2] / "static"


@pytest.fixture(scope="module")
def finished() -> Iterator[tuple[LiveServer, str, dict[str, Any]]]:
    """A server, and a classic match of three rounds played to its end on it by random bots."""
    server = LiveServer().start()
    played: list[Any] = []
    # Playwright's sync API holds this thread's event loop: the match is played in another thread.
    runner = threading.Thread(target=lambda: played.append(asyncio.run(three_rounds(server))))
    runner.start()
    runner.join(120)
    try:
        assert played, "the match was not played"
        match_id = played[0][0].view["room"]["match_id"]
        replay = httpx.get(f"{server.http}/api/matches/{match_id}/replay").json()
        yield server, match_id, replay
    finally:
        server.stop()


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context: BrowserContext = browser.new_context(locale="en-GB", reduced_motion="reduce",
                                                  viewport={"width": 1280, "height": 900})
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda exc: problems.append(str(exc)))
    page.on("console", lambda m: _note(m, problems))
    yield page
    context.close()
    assert problems == []


def _note(message: ConsoleMessage, problems: list[str]) -> None:
    if "Content Security Policy" in message.text:
        problems.append(message.text)


def names(replay: dict[str, Any], ids: list[int]) -> list[str]:
    return sorted(str(replay["cards"][c]["name"]) for c in ids)


def shown_hand(page: Page, seat: int) -> list[str]:
    ids = page.locator(f"[data-testid=replay-seat][data-seat='{seat}'] .replay-card").evaluate_all(
        "els => els.map(e => Number(e.dataset.cardId))")
    return sorted(str(i) for i in ids)


def expect_step(page: Page, replay: dict[str, Any], round_no: int, move: int) -> None:
    """The page shows that step: its position, its top card and every hand, card for card."""
    root = page.get_by_test_id("replay")
    expect(root).to_have_attribute("data-round", str(round_no))
    expect(root).to_have_attribute("data-move", str(move))
    state = replay["rounds"][round_no - 1]["steps"][move]["state"]
    expect(page.get_by_test_id("replay-top")).to_have_attribute("data-card-id", str(state["top"]))
    expect(page.get_by_test_id("replay-draw-count")).to_have_text(str(state["draw_pile"]))
    for seat, hand in enumerate(state["hands"]):
        assert shown_hand(page, seat) == sorted(str(i) for i in hand), (round_no, move, seat)


def test_the_replay_steps_jumps_and_opens_at_a_shared_move(page: Page, finished: tuple[LiveServer, str, Any],
                                                           artifacts: Path) -> None:
    server, match_id, replay = finished
    page.goto(f"{server.http}/matches/{match_id}")
    expect(page.get_by_test_id("history-table")).to_be_visible()
    expect_step(page, replay, 1, 0)
    # The deal, narrated as at the table.
    deal = replay["rounds"][0]["steps"][0]["events"]
    first = next(e for e in deal if e["kind"] == "first_card")
    expect(page.get_by_test_id("replay-ticker")).to_contain_text("The first card is")
    assert first["card"]["face"]
    expect(page.locator("[data-testid=replay-seat]")).to_have_count(3)
    expect(page.locator("[data-testid=replay-seat]").first).to_contain_text("P0")

    # Forward, forward, back.
    page.get_by_test_id("replay-forward").click()
    expect_step(page, replay, 1, 1)
    step1 = replay["rounds"][0]["steps"][1]
    who = replay["players"][step1["seat"]]
    expect(page.get_by_test_id("replay-ticker")).to_contain_text(who)
    expect(page.get_by_test_id("replay-position")).to_have_text(
        f"Round 1 · Move 1 of {len(replay['rounds'][0]['steps']) - 1}")
    page.get_by_test_id("replay-forward").click()
    expect_step(page, replay, 1, 2)
    page.get_by_test_id("replay-back").click()
    expect_step(page, replay, 1, 1)
    assert re.search(r"[?&]round=1&move=1$", page.url), page.url  # the address follows
    page.keyboard.press("ArrowRight")  # the focus is on the replay's buttons
    expect_step(page, replay, 1, 2)

    # Jump to round 2, then to its end: the round's winner and every final hand.
    page.get_by_test_id("replay-round").select_option("2")
    expect_step(page, replay, 2, 0)
    expect(page.get_by_test_id("replay-table")).to_contain_text("Round 2")
    page.get_by_test_id("replay-last").click()
    moves = len(replay["rounds"][1]["steps"]) - 1
    expect_step(page, replay, 2, moves)
    winner = replay["players"][replay["rounds"][1]["winner"]]
    expect(page.get_by_test_id("replay-status")).to_contain_text(f"{winner} went out")
    page.screenshot(path=str(artifacts / "replay-round-end.png"), full_page=True)
    # One more step is the next round's deal.
    page.get_by_test_id("replay-forward").click()
    expect_step(page, replay, 3, 0)

    # Play runs by itself at the chosen speed; pause stops it.
    page.get_by_test_id("replay-speed").select_option("4")
    page.get_by_test_id("replay-play").click()
    expect(page.get_by_test_id("replay-play")).to_have_attribute("data-playing", "true")
    page.wait_for_function("() => Number(document.querySelector('[data-testid=replay]').dataset.move) >= 3")
    page.get_by_test_id("replay-play").click()
    expect(page.get_by_test_id("replay-play")).to_have_attribute("data-playing", "false")
    stopped = page.get_by_test_id("replay").get_attribute("data-move")
    page.wait_for_timeout(700)
    assert page.get_by_test_id("replay").get_attribute("data-move") == stopped

    # A round's number in the history table opens the replay at that round's deal.
    page.get_by_test_id("history-replay-round").nth(2).click()
    expect_step(page, replay, 3, 0)
    assert page.url.endswith("?round=3&move=0")

    # A link to a move: copied from the page, opened in a fresh page, it shows that move.
    page.get_by_test_id("replay-round").select_option("2")
    page.get_by_test_id("replay-slider").fill("5")
    expect_step(page, replay, 2, 5)
    page.get_by_test_id("replay-copy-link").click()
    link = page.get_by_test_id("replay-copy-link").get_attribute("data-link")
    assert link == f"{server.http}/matches/{match_id}?round=2&move=5"
    expect(page.get_by_test_id("replay-copied")).to_contain_text(link)
    other = page.context.new_page()
    other.goto(link)
    expect_step(other, replay, 2, 5)
    other.goto(f"{server.http}/matches/{match_id}#r3m4")  # the fragment form
    expect_step(other, replay, 3, 4)
    other.goto(f"{server.http}/matches/{match_id}?round=9&move=99999")  # beyond the end: the last move
    expect_step(other, replay, 3, len(replay["rounds"][2]["steps"]) - 1)
    other.close()


def test_verify_runs_the_engine_in_the_browser(page: Page, finished: tuple[LiveServer, str, Any],
                                               tmp_path: Path, artifacts: Path) -> None:
    server, match_id, replay = finished
    page.goto(f"{server.http}/matches/{match_id}")
    page.get_by_test_id("verify-button").click()
    expect(page.get_by_test_id("verify-out")).to_have_attribute("data-state", "fair", timeout=90_000)
    rounds = page.get_by_test_id("verify-round")
    expect(rounds).to_have_count(len(replay["rounds"]))
    for n in range(1, len(replay["rounds"]) + 1):
        expect(rounds.nth(n - 1)).to_have_text(f"✓ Round {n}: fair")
        expect(rounds.nth(n - 1)).to_have_attribute("title", f"round {n}: fair")  # the engine's own line
    expect(page.get_by_test_id("verify-all-fair")).to_be_visible()
    # Signed with the key this server publishes (Ed25519, checked by WebCrypto).
    key_id = httpx.get(f"{server.http}/api/signing-key").json()["key_id"]
    expect(page.get_by_test_id("verify-signature")).to_have_attribute("data-state", "valid")
    expect(page.get_by_test_id("verify-signature")).to_contain_text(key_id)
    page.screenshot(path=str(artifacts / "verify-fair.png"), full_page=True)

    # Another match id, room and players: every round is still fair, but the signature is not valid.
    doc = httpx.get(f"{server.http}/api/matches/{match_id}/export").json()
    edited = tmp_path / "edited.json"
    edited.write_text(json.dumps({**doc, "match": {**doc["match"], "id": "0" * 16, "room": "FORGED"},
                                  "players": [f"Mallory {i}" for i in range(len(doc["players"]))]}))
    page.get_by_test_id("verify-file").set_input_files(str(edited))
    expect(page.get_by_test_id("verify-signature")).to_have_attribute("data-state", "invalid", timeout=60_000)
    expect(page.get_by_test_id("verify-out")).to_have_attribute("data-state", "fair")

    # A tampered export, chosen as a file: a card drawn in round 2 is not what the secret deals.
    doc = httpx.get(f"{server.http}/api/matches/{match_id}/export").json()
    drew = next((a, e) for a in doc["rounds"][1]["actions"] for e in a["events"] if e["kind"] == "drew")
    action, event = drew
    real = event["data"]["cards"][0]
    fake = next(c for c in replay["cards"] if c["name"] != real["name"])
    event["data"]["cards"][0] = fake
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(doc))
    page.get_by_test_id("verify-file").set_input_files(str(path))
    expect(page.get_by_test_id("verify-out")).to_have_attribute("data-state", "unfair", timeout=60_000)
    expect(page.get_by_test_id("verify-round")).to_have_count(1)  # round 1 was still fair
    reason = page.get_by_test_id("verify-reason")
    expect(reason).to_contain_text(f"round 2: action #{action['seq']}")
    expect(reason).to_contain_text(f"the export says 'drew' (seat {event['data']['seat']}, cards [{fake['name']}")
    expect(reason).to_contain_text(f"the replay gives 'drew' (seat {event['data']['seat']}, cards [{real['name']}")

    # Not an export at all.
    junk = tmp_path / "junk.json"
    junk.write_text("{\"hello\": 1}")
    page.get_by_test_id("verify-file").set_input_files(str(junk))
    expect(page.get_by_test_id("verify-reason")).to_have_text(
        "not a match export (its \"format\" is not 'uno-match-export')")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_replay_and_the_check_speak_every_language(browser: Browser, finished: tuple[LiveServer, str, Any],
                                                       lang: str) -> None:
    server, match_id, _ = finished
    catalogue = json.loads((STATIC / "i18n" / f"{lang}.json").read_text("utf-8"))
    context = browser.new_context(reduced_motion="reduce")
    try:
        page = context.new_page()
        page.goto(f"{server.http}/matches/{match_id}?lang={lang}")
        expect(page.locator("html")).to_have_attribute("lang", lang)
        expect(page.get_by_test_id("replay-play")).to_have_attribute("aria-label", catalogue["replay.play"])
        for testid, key in (("replay-back", "replay.back"), ("replay-forward", "replay.forward"),
                            ("replay-first", "replay.first"), ("replay-last", "replay.last")):
            expect(page.get_by_test_id(testid)).to_have_attribute("aria-label", catalogue[key])
        expect(page.get_by_test_id("replay-copy-link")).to_have_text(catalogue["replay.copy_link"])
        expect(page.get_by_test_id("verify-button")).to_have_text(catalogue["verify.button"])
        expect(page.get_by_test_id("replay-position")).to_have_text(
            f"{catalogue['table.round'].replace('{n}', '1')} · {catalogue['replay.deal']}")
        text = page.locator("main").inner_text()
        labels = page.locator("main [aria-label]").evaluate_all("els => els.map(e => e.getAttribute('aria-label'))")
        untranslated = re.findall(r"\b(?:replay|verify|table|summary|ev|pending)\.[a-z_.]+\b", text + " ".join(labels))
        assert untranslated == [], (lang, untranslated)
        if lang != "en":  # and not English left over where a translation exists
            english = json.loads((STATIC / "i18n" / "en.json").read_text("utf-8"))
            assert english["verify.explain"] not in text and catalogue["verify.explain"] in text
            assert english["replay.speed"] not in text
    finally:
        context.close()
