"""A 2v2 match played to the end through the page credits the team everywhere a player looks
(RULES.md §7.9 HR-26, HR-27; HX-14): the round summary, the log, the podium, the match page,
both partners' player pages (history and stats) and the leaderboard show the same figures, and
both partners win or lose together.  Ana plays through the page (seat 0), Bo (1) and her partner
Cy (2) over sockets, a bot holds seat 3.  Screenshots of the summary, the podium (also in
Galician on a phone and a laptop window), the match page and a player page go to test-artifacts/.
"""

from __future__ import annotations

import asyncio
import random
import re
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from app.persistence.db import resolve_url
from tests.browser.house_table import log_text, play_until
from tests.browser.tables import DEVICES, LAPTOP, LOCALES, PHONE, add_bots, open_seat
from tests.live import LiveServer, play_bot
from tests.players.conftest import Person, remembering_server
from tests.waiting import eventually

TEAMS = [[0, 2], [1, 3]]
# Every podium block's words stay inside it (no label spills out of its block, in any language).
SPILLS = """() => [...document.querySelectorAll('.place-block')].flatMap((block) => {
  const b = block.getBoundingClientRect();
  return [...block.children].filter((el) => {
    const r = el.getBoundingClientRect();
    return r.left < b.left - 0.5 || r.right > b.right + 0.5 || r.top < b.top - 0.5 || r.bottom > b.bottom + 0.5;
  }).map((el) => el.textContent);
})"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    live = remembering_server(resolve_url(None, tmp_path_factory.mktemp("teams")), between_rounds_seconds=6,
                              leaderboard_min_matches=1, leaderboard_min_opponents=1)
    yield live
    live.stop()


def numbers(text: str) -> list[int]:
    return [int(n) for n in re.findall(r"\d+", text)]


def others_play(server: LiveServer, code: str, joined: threading.Event, out: dict[str, Any]) -> threading.Thread:
    """Bo and Cy take seats 1 and 2 and play over sockets until the match is over (in a thread:
    the browser owns the test's own loop)."""
    async def go() -> None:
        people = [Person(server, "Bo"), Person(server, "Cy")]
        clients = [await p.join(code) for p in people]
        out["ids"] = [(await p.me())["id"] for p in people]
        joined.set()
        await asyncio.gather(*(play_bot(c, random.Random(f"team-credit/{i}")) for i, c in enumerate(clients)))
        out["match_id"] = clients[0].view["room"]["match_id"]
        for c in clients:
            await c.close()
        for p in people:
            await p.close()

    worker = threading.Thread(target=lambda: asyncio.run(go()), daemon=True)
    worker.start()
    return worker


def open_podium(browser: Browser, server: LiveServer, code: str, seat: dict[str, Any], device: str,
                lang: str) -> Page:
    """Ana's seat opened again, after the match, on `device` in `lang`: the podium."""
    context = browser.new_context(locale=LOCALES[lang], reduced_motion="reduce", **DEVICES[device])
    stored = f'{{"token": "{seat["token"]}", "seat": {seat["seat"]}, "name": "Ana"}}'
    context.add_init_script(f"localStorage.setItem('uno.seat.{code}', {stored!r})")
    page = context.new_page()
    page.goto(f"{server.http}/r/{code}?lang={lang}")
    expect(page.get_by_test_id("podium")).to_be_visible()
    return page


@pytest.mark.slow
def test_a_team_match_shows_the_same_team_figures_everywhere__HR_26_HR_27_HX_14(
        browser: Browser, server: LiveServer, artifacts: Path) -> None:
    body = {"variant": "classic", "max_seats": 4, "away_grace_seconds": 600,
            "house_rules": {"rounds": 2, "team_play": True}}
    code = httpx.post(f"{server.http}/api/rooms", json=body).json()["code"]
    with httpx.Client(base_url=server.http) as ana_http:  # Ana's own browser: her player cookie
        ana = ana_http.post(f"/api/rooms/{code}/players", json={"name": "Ana"}).json()
        ana_id = ana_http.get("/api/me").json()["id"]
    joined, out = threading.Event(), dict[str, Any]()
    worker = others_play(server, code, joined, out)
    assert joined.wait(60), "Bo and Cy did not sit down"
    add_bots(server, code, ana, 1)
    page = open_seat(browser, server, code, ana, LAPTOP)
    try:
        page.get_by_test_id("start-button").click()
        expect(page.get_by_test_id("table")).to_be_visible()

        # Round 1's summary: each row names this round's points and the match total, a team's.
        summary = page.get_by_test_id("summary-list")
        play_until(page, lambda: summary.count() > 0 and summary.is_visible(), seconds=300)
        rows = summary.locator("li[data-seat]")
        expect(rows).to_have_count(4)
        lead = page.get_by_test_id("round-winner").inner_text()
        worth = numbers(lead)[-1]
        totals = [int(rows.nth(i).get_by_test_id("summary-total").inner_text()) for i in range(4)]
        gained = [int(rows.nth(i).get_by_test_id("summary-round").inner_text().lstrip("+")) for i in range(4)]
        for a, b in TEAMS:
            assert totals[a] == totals[b] and gained[a] == gained[b]  # partners: one team's figures
        assert sorted(gained) == [0, 0, worth, worth]  # the round's points, credited to one team only
        expect(page.locator(".summary-head")).to_contain_text("This round")
        expect(page.locator(".summary-head")).to_contain_text("Match total")
        page.screenshot(path=str(artifacts / "team-credit-summary-laptop.png"))

        play_until(page, lambda: page.get_by_test_id("podium").count() > 0, seconds=300)
        podium = page.get_by_test_id("podium")
        expect(podium.locator("[data-team]")).to_have_count(2)
        winner_text = page.get_by_test_id("match-winner").inner_text()
        won = numbers(winner_text)[0] - 1  # "Team 1: Ana & Cy win the match!"
        on_podium = {int(str(podium.locator("[data-team]").nth(i).get_attribute("data-team"))):
                     numbers(podium.locator("[data-team]").nth(i).locator(".place-block > span").last.inner_text())[0]
                     for i in range(2)}
        assert podium.locator(f"[data-team='{won}']").get_attribute("data-place") == "1"
        log = log_text(page)
        assert "Team 1 (Ana & Cy)" in log and "Team 2 (Bo & Bot" in log  # the log names the teams
        # The scores panel credits each seat with its team's total too.
        panel = page.locator(".score-list li[data-seat]")
        assert [int(panel.nth(seat).locator(".score-value").inner_text()) for seat in range(4)] == \
            [on_podium[0], on_podium[1], on_podium[0], on_podium[1]]
        page.screenshot(path=str(artifacts / "team-credit-podium-laptop.png"))
        assert not page.errors, page.errors  # type: ignore[attr-defined]
    finally:
        page.context.close()
    worker.join(120)
    assert "match_id" in out, "Bo and Cy's match did not end"
    eventually(lambda: server.app.state.players.settler.settled >= 1, timeout=60, what="the match settled")

    bo_id, cy_id = out["ids"]
    context = browser.new_context(locale=LOCALES["en"], reduced_motion="reduce", **DEVICES[LAPTOP])
    page = context.new_page()
    try:
        # The match page: the team wins, the columns are the teams' totals, as on the podium.
        page.goto(f"{server.http}/matches/{out['match_id']}?lang=en")
        expect(page.get_by_test_id("history-winner")).to_contain_text(f"Team {won + 1} (")
        expect(page.get_by_test_id("history-column")).to_have_count(2)
        last = page.locator("[data-testid=history-table] tbody tr").last
        page_totals = [int(last.get_by_test_id("history-total").nth(k).inner_text()) for k in range(2)]
        assert page_totals == [on_podium[0], on_podium[1]]
        for cell in page.get_by_test_id("history-round-winner").all_inner_texts():
            assert re.search(r"\(\+\d+\)$", cell)
        # Its replay, at the match's last move: the team wins, each seat shows its team's total.
        expect(page.get_by_test_id("replay")).to_have_attribute("aria-busy", "false")
        page.get_by_test_id("replay-round").select_option("2")
        page.get_by_test_id("replay-last").click()
        expect(page.get_by_test_id("replay-status")).to_contain_text(f"Team {won + 1} (")
        seats = page.get_by_test_id("replay-seat")
        shown = [numbers(seats.nth(seat).locator(".opp-score").inner_text())[0] for seat in range(4)]
        assert shown == [on_podium[0], on_podium[1], on_podium[0], on_podium[1]]
        page.screenshot(path=str(artifacts / "team-credit-match-page-laptop.png"), full_page=True)

        # Both partners' pages: the same result, the team's points, the same wins.
        seen: dict[str, tuple[str, list[int], str]] = {}
        for pid in (ana_id, cy_id, bo_id):
            page.goto(f"{server.http}/players/{pid}?lang=en")
            line = page.get_by_test_id("history-line")
            expect(line).to_have_count(1)
            place = line.locator(".history-place").inner_text()
            points = numbers(line.locator(".history-facts span").nth(1).inner_text())
            wins = page.locator("[data-testid=stats-classic] [data-stat=wins] dd").inner_text()
            seen[pid] = (place, points, wins)
            partner = {ana_id: "Cy", cy_id: "Ana"}.get(pid)
            if partner:  # the line names the partner as such
                expect(line.get_by_test_id("history-partner")).to_contain_text(partner)
            if pid == ana_id:
                page.screenshot(path=str(artifacts / "team-credit-player-page-laptop.png"), full_page=True)
        assert seen[ana_id] == seen[cy_id]  # partners: one result, one total, one count of wins
        assert seen[ana_id][1] == [on_podium[0]] and seen[bo_id][1] == [on_podium[1]]
        assert (seen[ana_id][0] == "Won") == (won == 0) and (seen[bo_id][0] == "Won") == (won == 1)
        assert seen[ana_id][2] == ("1" if won == 0 else "0")
        assert seen[ana_id][0] in ("Won", "Place 2 of 2")  # places are the two teams'

        # The leaderboard: partners rated as one team, so fresh partners hold the same rating.
        page.goto(f"{server.http}/leaderboard/classic?lang=en")
        board = {pid: page.locator(f"[data-testid=board-row][data-player='{pid}']") for pid in (ana_id, cy_id, bo_id)}
        rating = {pid: row.locator(".col-rating").inner_text() for pid, row in board.items()}
        board_wins = {pid: row.locator(".col-wins").inner_text() for pid, row in board.items()}
        assert rating[ana_id] == rating[cy_id] != rating[bo_id] and board_wins[ana_id] == board_wins[cy_id]
    finally:
        context.close()

    # Galician's long labels stay inside their podium blocks, on a phone and a laptop window.
    for device in (PHONE, LAPTOP):
        gl = open_podium(browser, server, code, ana, device, "gl")
        try:
            assert gl.evaluate(SPILLS) == []
            gl.screenshot(path=str(artifacts / f"team-credit-podium-{device}-gl.png"))
            gl.get_by_test_id("last-round").locator("summary").click()
            gl.get_by_test_id("summary-list").scroll_into_view_if_needed()
            gl.screenshot(path=str(artifacts / f"team-credit-last-round-{device}-gl.png"))
        finally:
            gl.context.close()
