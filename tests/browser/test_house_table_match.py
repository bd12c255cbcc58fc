"""The table under house rules (RULES.md §7) over whole matches, played through the page on a
phone (390×664) and a laptop window (1366×657): teams (HR-26, HR-27), elimination (HR-29, HR-30),
and whole matches under the party and chaos presets (HR-34).  Screenshots go to test-artifacts/.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from app.engine.action_json import action_from_json
from app.engine.match import ROUND, Match, apply, legal_actions
from tests.browser.house_table import (
    first_legal_play,
    house_server,
    play_until,
    rules,
    seated,
    start,
    status,
)
from tests.browser.puppets import (
    Puppet,
    deal_with,
    fallback,
    find_match_seed,
    nothing,
)
from tests.browser.tables import LAPTOP, PHONE, add_bots
from tests.live import LiveServer


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    yield from house_server()

# ---------------------------------------------------------------- HR-26, HR-27


@pytest.mark.slow
@pytest.mark.parametrize("device", [PHONE, LAPTOP])
def test_teams_of_two_marked_scored_and_on_the_podium__HR_26_HR_27(browser: Browser, server: LiveServer,
                                                                   artifacts: Path, device: str) -> None:
    """Ana and three bots in teams: her partner (opposite, seat 2) says so, the others are Team 2;
    the scores panel totals the teams; the match's end stands the teams on the podium."""
    code, host, page = seated(browser, server, device, 4, {"team_play": True})
    try:
        add_bots(server, code, host, 3)
        start(page)
        partner = page.locator("[data-testid=opponent][data-seat='2'] [data-testid=team-badge]")
        expect(partner).to_have_text("Partner")
        for seat in (1, 3):
            badge = page.locator(f"[data-testid=opponent][data-seat='{seat}'] [data-testid=team-badge]")
            expect(badge).to_have_text("Team 2")
        expect(page.get_by_test_id("me-team")).to_have_text("Team 1")
        scores = page.get_by_test_id("team-scores")
        expect(scores.get_by_test_id("team-score")).to_have_count(2)
        expect(scores).to_contain_text("Ana & ")
        page.screenshot(path=str(artifacts / f"house-teams-table-{device}.png"))
        if device == PHONE:
            page.get_by_test_id("side-toggle").click()
            expect(scores).to_be_visible()
            page.screenshot(path=str(artifacts / f"house-teams-scores-{device}.png"))
            page.get_by_test_id("drawer-close").click()
        play_until(page, lambda: page.get_by_test_id("podium").count() > 0)
        podium = page.get_by_test_id("podium")
        expect(podium.locator("[data-team]")).to_have_count(2)
        expect(podium.locator("[data-team='0'] .place-name")).to_have_text("Team 1")
        expect(podium.locator("[data-team='0'] [data-testid=place-members]")).to_contain_text("Ana & ")
        expect(page.get_by_test_id("standings")).to_contain_text("Team 1: Ana & ")
        expect(page.get_by_test_id("match-winner")).to_contain_text(re.compile(r"^Team [12]: .* win the match!"))
        page.screenshot(path=str(artifacts / f"house-teams-podium-{device}.png"))
        assert not page.errors, page.errors  # type: ignore[attr-defined]
    finally:
        page.context.close()


# ---------------------------------------------------------------- HR-29, HR-30


@pytest.mark.slow
@pytest.mark.parametrize("device", [PHONE, LAPTOP])
def test_a_seat_out_of_the_match_is_greyed_and_passed_over__HR_29_HR_30(browser: Browser, server: LiveServer,
                                                                         artifacts: Path, device: str) -> None:
    """Cy only draws: after the first round Cy has the most cards and is out; the log says so,
    Cy's chip is greyed and marked, and the next player after Bo is Di."""
    code, _, page = seated(browser, server, device, 4, {"elimination": "cards"})
    bo, cy, di = (Puppet(server, code, n) for n in ("Bo", "Cy", "Di"))
    try:
        start(page)
        chip = page.locator("[data-testid=opponent][data-seat='2']")
        puppets = [(bo, first_legal_play), (cy, nothing), (di, first_legal_play)]
        play_until(page, lambda: chip.get_attribute("data-out") == "true", puppets)
        expect(chip.get_by_test_id("out-badge")).to_have_text("Out")
        expect(chip).to_have_class(re.compile(r"\bout\b"))
        expect(page.get_by_test_id("event-log-list")).to_contain_text("Cy is out of the match.")
        expect(page.locator(".score-list li.is-out")).to_have_count(1)
        play_until(page, lambda: status(page) == "playing", puppets, seconds=30)
        expect(chip).not_to_have_class(re.compile(r"\bnext\b"))
        page.screenshot(path=str(artifacts / f"house-elimination-out-{device}.png"))
        assert not page.errors, page.errors  # type: ignore[attr-defined]
    finally:
        for p in (bo, cy, di):
            p.close()
        page.context.close()


def ana_drawing_goes_out(match: Match, moves: int = 40) -> bool:
    """Round 1 played as the test plays it — Ana (seat 0) draws and keeps, Bo and Cy play their
    first legal play — ends within `moves` actions with Ana out (HR-30); Ana owes only turns."""
    for _ in range(moves):
        if match.round_no > 1 or match.phase != ROUND or match.round.pending is None:
            break
        pending = match.round.pending
        legal = [a.to_json() for a in legal_actions(match, pending.seat) if not a.uno]
        if pending.seat == 0 and pending.kind not in ("turn", "drawn"):
            return False
        pick = next(a for a in legal if a["kind"] in ("keep", "draw")) if pending.seat == 0 else (
            first_legal_play(legal, {}) or fallback(legal))
        if pick is None:
            return False
        apply(match, pending.seat, action_from_json(pick))
    return match.out == [0]


@pytest.mark.slow
@pytest.mark.parametrize("device", [PHONE, LAPTOP])
def test_out_of_the_match_your_table_is_a_watchers__HR_30(browser: Browser, server: LiveServer, artifacts: Path,
                                                         monkeypatch: pytest.MonkeyPatch, device: str) -> None:
    """Ana only draws: out after the first round, her table watches the others (a banner, no
    hand, no Draw or UNO!), the scores mark her out.  The deal is one where that round is short."""
    deal_with(monkeypatch, find_match_seed("classic", 3, rules({"elimination": "cards"}), ana_drawing_goes_out))
    code, _, page = seated(browser, server, device, 3, {"elimination": "cards"})
    bo, cy = Puppet(server, code, "Bo"), Puppet(server, code, "Cy")
    try:
        start(page)
        banner = page.get_by_test_id("out-banner")
        play_until(page, lambda: banner.count() > 0 and status(page) == "playing",
                   [(bo, first_legal_play), (cy, first_legal_play)], only_draw=True)
        expect(banner).to_contain_text("You are out of the match.")
        expect(banner).to_contain_text("2 players still in")
        expect(page.get_by_test_id("hand")).to_be_hidden()
        expect(page.get_by_test_id("draw-button")).to_be_hidden()
        expect(page.get_by_test_id("uno-button")).to_be_hidden()
        expect(page.get_by_test_id("me-out")).to_have_text("Out")
        expect(page.get_by_test_id("event-log-list")).to_contain_text("Ana is out of the match.")
        page.screenshot(path=str(artifacts / f"house-elimination-watching-{device}.png"))
        assert not page.errors, page.errors  # type: ignore[attr-defined]
    finally:
        bo.close()
        cy.close()
        page.context.close()


# ---------------------------------------------------------------- HR-34 presets, whole rounds


@pytest.mark.slow
@pytest.mark.parametrize("preset", ["party", "chaos"])
@pytest.mark.parametrize("device", [PHONE, LAPTOP])
def test_a_whole_match_under_a_preset_through_the_page__HR_34(browser: Browser, server: LiveServer, artifacts: Path,
                                                              device: str, preset: str) -> None:
    """Ana and two bots play a one-round match under the party or chaos preset: every decision
    the rules bring (stacks, Seven-O targets, batches, drawn cards one must play) is answered on
    the page until the podium shows."""
    code, host, page = seated(browser, server, device, 3, {"preset": preset})
    try:
        add_bots(server, code, host, 2)
        start(page)
        shots: set[str] = set()

        def done() -> bool:
            kind = page.evaluate("() => { const d = document.querySelector('[data-testid=dialog]:not([hidden])');"
                                 " return d ? d.dataset.kind : null; }")
            if kind and kind not in shots:
                shots.add(kind)
                page.screenshot(path=str(artifacts / f"house-{preset}-{kind}-{device}.png"))
            return page.get_by_test_id("podium").count() > 0

        stats = play_until(page, done)
        assert stats.get("batches", 0) <= stats.get("batch_offers", 0)
        if preset == "party":
            assert "batch" not in shots  # no multi_play in party
        elif "batch" in shots:
            assert stats.get("batches", 0) >= 1  # a batch offered was built and played (HR-8)
        expect(page.get_by_test_id("match-winner")).to_be_visible()
        page.screenshot(path=str(artifacts / f"house-{preset}-podium-{device}.png"))
        assert not page.errors, page.errors  # type: ignore[attr-defined]
    finally:
        page.context.close()
