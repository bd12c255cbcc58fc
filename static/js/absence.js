// Coming back to the table: what happened while you were away, told once.
// A seat whose player is gone past the grace is played by a bot ("takeover" in the log) until
// they come back ("returned").  Without a word the returning player finds the round won or
// lost for them, or someone else hosting; so the first view after a return says what changed
// in between — from the server's tally of the absence (cards played, drawn, penalties, swaps,
// rounds), as the log the page holds may not reach back that far — and goes once you have made
// a move of your own.  `awayReport` is pure (tested under Node); `AbsenceNotice` shows it once per
// return (remembered in this browser, so a reload does not repeat it).
import { t } from "./i18n.js";
import { h } from "./dom.js";

// A move of one's own: a play, or a draw on one's turn (not cards others made one draw).
const isMove = (e) => e.kind === "play" || (e.kind === "draw" && e.reason === "turn");
// A decision of one's own after coming back: the notice has had its moment and goes.
const OWN = new Set(["play", "keep", "accept", "challenge", "deflect", "pass", "uno", "colour"]);
const isOwnMove = (e) => OWN.has(e.kind) || (e.kind === "draw" && ["turn", "dip", "special"].includes(e.reason));

/**
 * The lines for the server's tally of an absence (`away` on the "returned" entry,
 * app/rooms/away.py): cards played, drawn and taken as penalties, catches, swapped and passed
 * hands, rounds and matches over, a new host; then where you stand now, while a match is on.
 */
function tallyLines(away, view, you, nameOf) {
  const lines = [];
  const count = (key) => { if (away[key]) lines.push(t(`away.${key}`, { n: away[key] })); };
  count("played");
  count("drew");
  count("penalty");
  count("caught");
  for (const s of away.swaps || []) {
    lines.push(s.by === you ? t("away.swap_you", { name: nameOf(s.with) }) : t("away.swap_other", { name: nameOf(s.by) }));
  }
  count("passed");
  count("earlier_rounds");
  for (const r of away.rounds || []) {
    lines.push(r.winner === you ? t("away.round_you", { round: r.round ?? "?", points: r.points })
      : t("away.round_other", { round: r.round ?? "?", name: nameOf(r.winner), points: r.points }));
  }
  for (const w of away.matches || []) lines.push(t("ev.match_over", { name: nameOf(w) }));
  if (typeof away.host === "number") lines.push(t("ev.host", { name: nameOf(away.host) }));
  const game = view.game;
  if (lines.length && game && view.room && view.room.status === "playing" && game.table) {
    lines.push(t("away.now", { n: game.table.hand_sizes[you], points: (game.scores || [])[you] ?? 0 }));
  }
  return lines;
}

/**
 * The last absence of seat `you` that has ended, as `{ n, lines }` (n: its "returned" entry's
 * number), or null if there is none or nothing happened in it worth telling.
 */
export function awayReport(view, you, nameOf) {
  if (you === null || you === undefined) return null;
  const log = view.log || [];
  let back = -1;
  for (let i = log.length - 1; i >= 0; i--) {
    if (log[i].kind === "returned" && log[i].seat === you) { back = i; break; }
  }
  if (back < 0) return null;
  if (log[back].away) { // the server's tally, which outlasts the log the page holds
    const lines = tallyLines(log[back].away, view, you, nameOf);
    return lines.length ? { n: log[back].n, lines } : null;
  }
  let gone = -1;
  for (let i = back - 1; i >= 0; i--) {
    if (log[i].kind === "takeover" && log[i].seat === you) { gone = i; break; }
  }
  if (gone < 0) return null; // the log no longer reaches back to the start of that absence
  let round = null;
  for (let i = 0; i < gone; i++) if (log[i].kind === "round_start") round = log[i].round;
  let moves = 0;
  const lines = [];
  for (const e of log.slice(gone + 1, back)) {
    if (e.kind === "round_start") round = e.round;
    else if (isMove(e) && e.seat === you) moves += 1;
    else if (e.kind === "round_over") {
      lines.push(e.winner === you ? t("away.round_you", { round: round ?? "?", points: e.points })
        : t("away.round_other", { round: round ?? "?", name: nameOf(e.winner), points: e.points }));
    } else if (e.kind === "match_over") lines.push(t("ev.match_over", { name: nameOf(e.winner) }));
    else if (e.kind === "host" && e.seat !== you) lines.push(t("ev.host", { name: nameOf(e.seat) }));
  }
  if (moves) lines.unshift(moves === 1 ? t("away.move_one") : t("away.moves", { n: moves }));
  return lines.length ? { n: log[back].n, lines } : null;
}

export class AbsenceNotice {
  constructor() {
    this.el = null;
    this.shown = 0; // the "returned" entry told: a move of yours after it closes the notice
  }

  /**
   * After each view: show the report of a return not yet told in this browser; close it after
   * your first move.  `spot` is where it goes at the table ({ host, before }: away.css places
   * it), never over the seats, the pile, the colour or the hand (it once lay over a phone's seats
   * until the first move).  Without a table (the waiting room) it is a box near the top of the
   * page, where there is nothing of a table to cover.
   */
  update(view, you, nameOf, spot = null) {
    if (this.el && (view.log || []).some((e) => e.n > this.shown && e.seat === you && isOwnMove(e))) this.close();
    if (this.el) this.place(spot); // the table built, built again or turned since it was shown
    const report = awayReport(view, you, nameOf);
    if (!report || this.el) return;
    const key = `uno.away.${view.room.code}`;
    if (localStorage.getItem(key) === String(report.n)) return;
    localStorage.setItem(key, String(report.n));
    this.shown = report.n;
    const ok = h("button", { class: "btn btn-primary btn-small", type: "button", "data-testid": "away-ok", text: t("away.ok") });
    this.el = h("section", { class: "away-notice", role: "status", "aria-labelledby": "away-title", "data-testid": "away-notice" },
      h("h2", { id: "away-title", text: t("away.title") }),
      h("ul", {}, report.lines.map((line) => h("li", { text: line }))), ok);
    ok.addEventListener("click", () => this.close());
    this.place(spot);
    ok.focus({ preventScroll: true });
  }

  place(spot) {
    const host = spot && spot.host.isConnected ? spot.host : null;
    const home = host || document.body;
    const before = host && spot.before && spot.before.parentNode === host ? spot.before : null;
    if (this.el.parentNode !== home || this.el.nextSibling !== before) home.insertBefore(this.el, before);
    this.el.classList.toggle("in-table", !!host);
  }

  close() {
    if (this.el) this.el.remove();
    this.el = null;
  }
}
