// The end of a match: who placed where, ties shown as ties, the podium before anything else.
// `places` is pure (tested under Node); `podiumParts` builds the final summary's top part.
import { t } from "./i18n.js";
import { h } from "./dom.js";

/**
 * The standings as places: `[{ place, players: [{ seat, name, score }] }]`, best first.
 * Equal scores share a place, and the next place counts them all ("1, 2, 2, 4"), as tables of
 * sport do; the match winner is first even in the (unreachable) case of an equal score.
 * `lowWins`: penalty scoring (HR-23), where the lowest total is best.
 */
export function places(table, winner, lowWins = false) {
  const better = lowWins ? (a, b) => a.score - b.score : (a, b) => b.score - a.score;
  const rows = [...(table || [])].sort((a, b) => (b.seat === winner) - (a.seat === winner) || better(a, b) || a.seat - b.seat);
  const out = [];
  rows.forEach((row, i) => {
    const last = out[out.length - 1];
    const tied = last && last.players[0].score === row.score && last.players[0].seat !== winner;
    if (tied) last.players.push(row);
    else out.push({ place: i + 1, players: [row] });
  });
  return out;
}

/**
 * Under team play (HR-27) the standings are the teams': one row per team, named by its team
 * and players, scored by its total (`game.team_scores`), its first seat standing for it.
 * Returns { table, winner } for `places`, or null without teams.
 */
export function teamStandings(summary, game, nameOf) {
  if (!game || !game.teams) return null;
  const table = game.teams.map((seats, k) => ({
    seat: seats[0], seats: [...seats], team: k, score: (game.team_scores || [])[k] ?? 0,
    name: t("team.named", { team: t("team.name", { n: k + 1 }), names: seats.map(nameOf).join(" & ") }),
    short: t("team.name", { n: k + 1 }), members: seats.map(nameOf).join(" & "),
  }));
  const won = table.find((row) => row.seats.includes(summary.match_winner));
  return { table, winner: won ? won.seat : summary.match_winner };
}

const tie = (p) => (p.players.length > 1 ? h("span", { class: "tie-mark", text: t("summary.tie") }) : null);
const CONFETTI = 14; // pieces; CSS hides them all under reduced motion

/**
 * The podium (places 1 to 3, left to right 2-1-3) and the full standings, for the final
 * summary; `teams` (teamStandings) puts the teams on it instead of the players; `lowWins` as
 * for `places`.
 */
export function podiumParts(summary, you, teams = null, lowWins = false) {
  const standing = teams ? places(teams.table, teams.winner, lowWins) : places(summary.table, summary.match_winner, lowWins);
  const podium = h("ol", { class: "podium", "data-testid": "podium" });
  const top = standing.filter((p) => p.place <= 3);
  const order = [top[1], top[0], top[2]].filter(Boolean);
  for (const p of order) {
    // A team stands as its name, its players below it (a column is narrow on a phone).
    const names = p.players.map((x) => x.short || x.name).join(", ");
    const members = p.players[0].members ? p.players.map((x) => x.members).join(", ") : null;
    podium.append(h("li", { class: `place place-${p.place}`, "data-place": p.place, "data-tied": p.players.length > 1 ? "true" : null,
      "data-team": p.players[0].team ?? null },
      h("span", { class: "place-name", text: names, title: names }),
      members ? h("span", { class: "place-members", "data-testid": "place-members", text: members }) : null,
      h("span", { class: "place-block" },
        h("strong", { text: String(p.place) }), tie(p),
        h("span", { text: t("summary.total", { n: p.players[0].score }) }))));
  }
  const list = h("ol", { class: "standings", "data-testid": "standings" });
  for (const p of standing) {
    for (const x of p.players) {
      const mine = x.seats ? x.seats.includes(you) : x.seat === you;
      list.append(h("li", { class: mine ? "is-me" : null, "data-place": p.place, "data-team": x.team ?? null },
        h("span", { class: "standing-place", text: String(p.place) }),
        h("span", { class: "standing-name", text: x.name }), tie(p),
        h("span", { class: "standing-score", text: String(x.score) })));
    }
  }
  const confetti = h("div", { class: "confetti", "aria-hidden": "true" });
  for (let i = 0; i < CONFETTI; i++) confetti.append(h("span", { class: `confetti-piece confetti-${i % 4}` }));
  return { podium, list, confetti };
}
