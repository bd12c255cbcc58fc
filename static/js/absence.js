// Coming back to the table: what happened while you were away, told once.
// A seat whose player is gone past the grace is played by a bot ("takeover" in the log) until
// they come back ("returned").  Without a word the returning player finds the round won or
// lost for them, or someone else hosting; so the first view after a return says what changed
// in between.  `awayReport` is pure (tested under Node); `AbsenceNotice` shows it once per
// return (remembered in this browser, so a reload does not repeat it).
import { t } from "./i18n.js";
import { h } from "./dom.js";

// A move of one's own: a play, or a draw on one's turn (not cards others made one draw).
const isMove = (e) => e.kind === "play" || (e.kind === "draw" && e.reason === "turn");

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
  }

  /** After each view: show the report of a return not yet told in this browser. */
  update(view, you, nameOf) {
    const report = awayReport(view, you, nameOf);
    if (!report || this.el) return;
    const key = `uno.away.${view.room.code}`;
    if (localStorage.getItem(key) === String(report.n)) return;
    localStorage.setItem(key, String(report.n));
    const ok = h("button", { class: "btn btn-primary btn-small", type: "button", "data-testid": "away-ok", text: t("away.ok") });
    this.el = h("section", { class: "away-notice", role: "status", "aria-labelledby": "away-title", "data-testid": "away-notice" },
      h("h2", { id: "away-title", text: t("away.title") }),
      h("ul", {}, report.lines.map((line) => h("li", { text: line }))), ok);
    ok.addEventListener("click", () => this.close());
    document.body.append(this.el);
    ok.focus({ preventScroll: true });
  }

  close() {
    if (this.el) this.el.remove();
    this.el = null;
  }
}
