// The round's summary over the table, and at the match's end the podium, the standings and
// playing again (podium.js, rematch.js).  Rebuilt only when what it shows changes; `state`
// keeps its countdowns' tickers between frames.
import { t } from "./i18n.js";
import { clear, h } from "./dom.js";
import { cardLabel, cardSvg, sortHand } from "./cards.js";
import { podiumParts, teamStandings } from "./podium.js";
import { rematchControls, stoppedNote } from "./rematch.js";
import { creditedTotal, roundLine, teamIndex } from "./credit.js";
import { podiumStanding } from "./standing.js";
import { keepFocus } from "./table/focus.js";
import { changed } from "./table/changed.js";

/** Builds the summary into `box` (the page's summary section) unless it would look the same. */
function buildSummary(box, g, s, status, { view, you, send, nameOf, state }) {
  const mine = view.players.find((p) => p.seat === you);
  const shown = [s, status, view.players.map((p) => [p.name, p.ready]), view.room.host, view.room.match_id, view.room.rematch_at,
    view.room.edition, view.room.target, view.room.house_rules, stoppedNote(view)];
  if (!changed(box, shown)) return;
  const result = g.table.result;
  const teams = g.teams || null; // HR-26: a seat's round and total are its team's (credit.js)
  // Two figures per row, both named: what the round gave (its side) and the match total since.
  const roundOf = (seat) => (teams ? creditedTotal(teams, s.gained || [], seat)
    : (s.gained || [])[seat] ?? (seat === s.winner ? s.points : 0));
  const rows = h("ol", { class: "summary-list", "data-testid": "summary-list" },
    h("li", { class: "summary-head", "aria-hidden": "true" },
      h("span", { text: t("summary.col_player") }), h("span", { text: t("summary.col_cards") }),
      h("span", { class: "summary-num", text: t("summary.col_round") }), h("span", { class: "summary-num", text: t("summary.col_total") })));
  for (const seat of view.players.map((p) => p.seat)) {
    const hand = result ? result.hands[seat] || [] : [];
    const cards = h("span", { class: "mini-hand" });
    for (const c of sortHand(hand)) cards.append(h("span", { class: "mini-card", role: "img", "aria-label": cardLabel(c) }, cardSvg(c)));
    const out = (g.eliminated || []).includes(seat); // HR-29: out after this round or before
    const gained = roundOf(seat);
    const total = teams ? creditedTotal(teams, s.scores, seat) : s.scores[seat];
    const k = teamIndex(teams, seat);
    rows.append(h("li", { class: `${seat === s.winner ? "winner" : ""}${out ? " is-out" : ""}`, "data-seat": seat },
      h("span", { class: "summary-name", text: nameOf(seat) }, out ? h("span", { class: "badge badge-out", "data-testid": "summary-out", text: t("out.badge") }) : null,
        k >= 0 ? h("span", { class: "summary-team", text: t("team.name", { n: k + 1 }) }) : null),
      seat === s.winner ? h("span", { class: "badge badge-turn", text: t("summary.went_out") }) : cards,
      h("span", { class: "summary-num summary-round", "data-testid": "summary-round", "aria-label": t("summary.cell_round", { n: gained }), text: gained ? `+${gained}` : "0" }),
      h("span", { class: "summary-num summary-score", "data-testid": "summary-total", "aria-label": t("summary.cell_total", { n: total }), text: String(total) })));
  }
  const title = h("h2", { id: "summary-title", tabindex: "-1", "data-testid": "summary-title", text: t("summary.title", { n: s.round }) });
  const lead = h("p", { class: "summary-lead", id: "summary-lead", "data-testid": "round-winner", text: roundLine(teams, s.winner, s.points, nameOf, (view.room.house_rules || {}).scoring === "penalty") });
  const body = [title, lead, rows];
  if (status === "over") {
    // The podium comes first; the last round's leftover hands fold away below it (podium.js).
    // Under team play (HR-27) the teams stand on the podium, and a team wins.
    const teams = teamStandings(s, g, nameOf);
    const lowWins = (view.room.house_rules || {}).scoring === "penalty"; // HR-23: the lowest total wins
    const { podium, list, confetti } = podiumParts(s, you, teams, lowWins);
    const champion = teams ? teams.table.find((row) => row.seat === teams.winner) : null;
    const winnerText = champion ? t("summary.team_winner", { name: champion.name }) : t("summary.match_winner", { name: nameOf(s.match_winner) });
    body.length = 0;
    body.push(confetti, title, h("h3", { class: "match-winner", id: "match-winner", "data-testid": "match-winner", text: winnerText }), podium,
      podiumStanding(view.room.edition, view.room.match_id)); // your place on the leaderboard, or what is left
    // Play again is the table's decision: ready or leave, the host's countdown (rematch.js).
    const [decide, waiting, nextGame] = rematchControls(view, you, send, state.rematchTimer);
    const controls = h("div", { class: "button-row" });
    if (view.room.match_id) controls.append(h("a", { class: "btn", href: `/matches/${encodeURIComponent(view.room.match_id)}`, "data-testid": "history-link", text: t("summary.history") }));
    controls.append(h("a", { class: "btn btn-ghost", href: "/", text: t("nav.home") }));
    body.push(decide, waiting, nextGame, controls, h("h3", { class: "standings-title", text: t("summary.standings") }), list,
      h("details", { class: "last-round", "data-testid": "last-round" }, h("summary", { text: t("summary.last_round") }), lead, rows));
  } else {
    const countdown = h("p", { class: "muted", "data-testid": "next-round-countdown" });
    const tick = () => {
      const at = view.room.next_round_at;
      const left = at ? Math.max(0, Math.ceil(at - Date.now() / 1000)) : null;
      countdown.textContent = left !== null ? t("summary.next_in", { n: left }) : "";
    };
    tick();
    clearInterval(state.countdown);
    state.countdown = setInterval(tick, 1000);
    const ready = mine ? mine.ready : false;
    body.push(countdown, h("div", { class: "button-row" },
      mine ? h("button", { class: "btn btn-primary", type: "button", "data-testid": "ready-button", "aria-pressed": ready ? "true" : "false", disabled: ready, text: ready ? t("summary.ready_waiting") : t("summary.ready"), onclick: () => send({ type: "ready", ready: true }) }) : null));
  }
  clear(box).append(h("div", { class: "summary-card" }, ...body));
  box.dataset.final = status === "over" ? "true" : "false";
  box.setAttribute("aria-describedby", status === "over" ? "summary-lead match-winner" : "summary-lead");
  box.hidden = false;
}

/**
 * The summary box for `view`: hidden while a round is played, else the round's summary or the
 * podium; a new one takes the focus (read out as it appears), never from someone typing.
 */
export function showSummary(box, view, { you, send, nameOf, state }) {
  const s = view.summary;
  const status = view.room.status;
  if (!s || (status !== "between" && status !== "over")) {
    box.hidden = true;
    changed(box, null); // the next summary is drawn afresh
    clearInterval(state.countdown);
    return;
  }
  const parts = { view, you, send, nameOf, state };
  keepFocus(box, () => buildSummary(box, view.game, s, status, parts), ["ready-button", "rematch-button", "summary-title"]);
  const shown = `${s.round}/${status}`;
  if (state.shown === shown) return;
  state.shown = shown;
  const title = box.querySelector("#summary-title");
  const typing = document.activeElement && ["INPUT", "TEXTAREA"].includes(document.activeElement.tagName);
  if (title && !typing) title.focus({ preventScroll: true });
}
