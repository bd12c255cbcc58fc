// Who plays with whom and who is still in: teams of two (RULES.md HR-26, HR-27) and elimination
// (HR-29, HR-30), read from the view's `game.teams`, `game.team_scores` and `game.eliminated`
// (docs/PROTOCOL.md).  Pure, for the table's model, the scores panel and the podium.
import { t } from "../i18n.js";

/** The room's house rules as the match plays them (the game's, else the room's). */
export function houseRules(view) {
  return (view.game && view.game.house_rules) || (view.room && view.room.house_rules) || {};
}

/** The seats out of the match (HR-29, HR-30), as a Set (empty without elimination). */
export function outOf(view) {
  return new Set((view.game && view.game.eliminated) || []);
}

/** The team (0, 1, ...) of `seat` under team play (HR-26), else null. */
export function teamOf(view, seat) {
  const teams = view.game && view.game.teams;
  if (!teams || seat === null || seat === undefined) return null;
  const k = teams.findIndex((team) => team.includes(seat));
  return k < 0 ? null : k;
}

/**
 * The teams with their totals (HR-27), best first (lowest first under penalty scoring, HR-23):
 * `[{ team, seats, names, score, mine }]`, or null without team play.
 */
export function teamsModel(view, nameOf) {
  const g = view.game;
  if (!g || !g.teams) return null;
  const low = houseRules(view).scoring === "penalty";
  const rows = g.teams.map((seats, team) => ({
    team, seats: [...seats], names: seats.map(nameOf).join(" & "),
    score: (g.team_scores && g.team_scores[team]) ?? seats.reduce((sum, s) => sum + (g.scores[s] ?? 0), 0),
    mine: view.you !== null && seats.includes(view.you),
  }));
  return rows.sort((a, b) => (low ? a.score - b.score : b.score - a.score) || a.team - b.team);
}

/** The team's short name ("Team 1"), for badges and the podium. */
export const teamName = (team) => t("team.name", { n: team + 1 });

/**
 * What the table says to a seat out of the match (HR-30): it watches, no hand, no actions.
 * Null while you are in (or watching as a spectator, which the page says already).
 */
export function watcherModel(view) {
  const out = view.game && view.game.eliminated;
  if (view.you === null || !out || !out.includes(view.you)) return null;
  const left = view.game.table.hand_sizes.length - out.length;
  return { title: t("out.title"), text: t("out.text", { n: left }) };
}
