// A finished match's history: rounds, winners, points and totals, from /api/matches/{id};
// then its replay (replay_view.js), opened at the move a shared link names, and the fairness
// check run in the browser (verify_panel.js).
import { loadCatalogue, t } from "../i18n.js";
import { api, clear, h, initLanguagePicker } from "../dom.js";
import { mountReplay } from "../replay_view.js";
import { linkTo, parseLink } from "../replay.js";
import { mountVerify } from "../verify_panel.js";
import { shownName } from "../players_view.js";
import { matchWinnerLine, teamLabel } from "../credit.js";

const root = document.getElementById("history-root");
const id = document.body.dataset.matchId;

async function show() {
  let m;
  try {
    m = await api("GET", `/api/matches/${encodeURIComponent(id)}`);
  } catch (err) {
    clear(root).append(h("h1", { text: t("history.title") }),
      h("p", { "data-testid": "history-missing", text: err.status === 404 ? t("history.not_found") : t("history.unavailable") }),
      h("a", { class: "btn", href: "/", text: t("nav.home") }));
    root.setAttribute("aria-busy", "false");
    // A room that shows spectators its table late shows its match here as late: ask again.
    if (err.status === 409) setTimeout(show, 3000);
    return;
  }
  m.players = (m.players || []).map(shownName); // "a former player", in the reader's language
  const name = (seat) => m.players[seat] || t("room.seat_n", { n: seat + 1 });
  // Under HR-26 the columns are the teams' totals and a team wins (the server's `sides` and
  // `winners`, the figures the table and the players' history credit too).
  const teams = m.team_play && m.sides && m.sides.length ? m.sides : null;
  const columns = teams || m.players.map((_, seat) => [seat]);
  const head = h("tr", {}, h("th", { scope: "col", text: t("history.round") }), h("th", { scope: "col", text: t("history.winner") }),
    ...columns.map((seats) => h("th", { scope: "col", "data-testid": "history-column", text: teams ? teamLabel(seats, name) : name(seats[0]) })));
  const body = h("tbody", {});
  for (const r of m.rounds || []) {
    const bySeat = new Map((r.scores || []).map((s) => [s.seat, s]));
    // Over, a round's number opens the replay at its deal.
    const number = m.status === "over"
      ? h("a", { href: linkTo(location.href, { round: r.number, move: 0 }), "data-testid": "history-replay-round", text: String(r.number), onclick: (ev) => openRound(ev, r.number) })
      : String(r.number);
    body.append(h("tr", {}, h("th", { scope: "row" }, number),
      h("td", { "data-testid": "history-round-winner", text: r.winner === null || r.winner === undefined ? "—" : `${name(r.winner)} (+${r.points ?? 0})` }),
      ...columns.map((seats) => h("td", { "data-testid": "history-total",
        text: seats.every((seat) => bySeat.has(seat)) ? String(seats.reduce((sum, seat) => sum + bySeat.get(seat).total, 0)) : "—" }))));
  }
  clear(root).append(
    h("h1", { text: t("history.title") }),
    h("p", { class: "edition-line", text: `${t(`edition.${m.edition}`)} · ${t("side.target", { n: m.target })}` }),
    m.winner !== null && m.winner !== undefined ? h("p", { class: "summary-lead", "data-testid": "history-winner", text: matchWinnerLine(teams, m.winner, name) }) : null,
    h("div", { class: "table-scroll" }, h("table", { class: "history-table", "data-testid": "history-table" }, h("thead", {}, head), body)),
    h("a", { class: "btn", href: "/", text: t("nav.home") }));
  root.setAttribute("aria-busy", "false");
  if (m.status === "over") {
    const replayRoot = h("section", { class: "panel replay", id: "replay", "data-testid": "replay", tabindex: "-1", "aria-busy": "true" },
      h("h2", { text: t("replay.title") }), h("p", { class: "loading", text: t("room.loading") }));
    const verifyRoot = h("section", { class: "panel verify", id: "verify", "data-testid": "verify" });
    root.after(replayRoot, verifyRoot);
    mountVerify(verifyRoot, id);
    showReplay(replayRoot, name);
  }
}

let replay = null;

function openRound(ev, round) {
  if (!replay) return; // not loaded yet: the link opens the page at that round
  ev.preventDefault();
  replay.go({ round, move: 0 });
  document.getElementById("replay").scrollIntoView({ block: "start" });
}

async function showReplay(replayRoot, nameOf) {
  let doc;
  try {
    doc = await api("GET", `/api/matches/${encodeURIComponent(id)}/replay`);
  } catch {
    clear(replayRoot).append(h("h2", { text: t("replay.title") }),
      h("p", { "data-testid": "replay-missing", text: t("replay.unavailable") }));
    replayRoot.setAttribute("aria-busy", "false");
    return;
  }
  const asked = parseLink(location.search, location.hash);
  replay = mountReplay(replayRoot, doc, {
    nameOf,
    start: asked,
    // The address follows the replay, so that it can be bookmarked or shared as it is.
    onMove: (pos) => history.replaceState(null, "", linkTo(location.href, pos)),
  });
  replayRoot.setAttribute("aria-busy", "false");
  if (asked) replayRoot.scrollIntoView({ block: "start" });
}

loadCatalogue().then(() => { initLanguagePicker(); show(); });
