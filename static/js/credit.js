// Who a figure credits under team play (HR-26, HR-27, HX-14): a team, named the same way on the
// table, in the log, the round summary and the match page.  Team k is the seats k and k + N/2,
// so a team's lowest seat is its number less one.
import { t } from "./i18n.js";

/** "Team 1 (Ana & Cy)": the team whose seats are `seats`, its players named by `nameOf`. */
export function teamLabel(seats, nameOf) {
  const sorted = [...seats].sort((a, b) => a - b);
  return t("team.short_named", { team: t("team.name", { n: sorted[0] + 1 }), names: sorted.map(nameOf).join(" & ") });
}

/** The index in `teams` (the view's `game.teams`) of `seat`'s team, or -1 without teams. */
export function teamIndex(teams, seat) {
  return (teams || []).findIndex((seats) => seats.includes(seat));
}

/** The teams of a match of this configuration (`{ seats, house }`, as an export has it), or null. */
export function teamsOf(config) {
  if (!config || !config.house || !config.house.team_play) return null;
  const half = config.seats / 2;
  return Array.from({ length: half }, (_, k) => [k, k + half]);
}

/** What `seat` is credited with from per-seat `scores`: its own, or under teams its team's sum. */
export function creditedTotal(teams, scores, seat) {
  const k = teamIndex(teams, seat);
  return k < 0 ? (scores[seat] ?? 0) : teams[k].reduce((sum, s) => sum + (scores[s] ?? 0), 0);
}

/**
 * The round's line ("Ana went out: Team 1 (Ana & Cy) gets 14 points."), as the log words it;
 * `penalty` (HR-23): the points are what the others add, each their own hand.
 */
export function roundLine(teams, winner, points, nameOf, penalty = false) {
  const k = teamIndex(teams, winner);
  if (penalty) return t("ev.round_over_penalty", { name: nameOf(winner), points });
  return k < 0 ? t("summary.winner", { name: nameOf(winner), points })
    : t("ev.round_over_team", { name: nameOf(winner), team: teamLabel(teams[k], nameOf), points });
}

export function matchWinnerLine(teams, winner, nameOf) {
  const k = teamIndex(teams, winner);
  return k < 0 ? t("summary.match_winner", { name: nameOf(winner) }) : t("ev.match_over_team", { team: teamLabel(teams[k], nameOf) });
}
