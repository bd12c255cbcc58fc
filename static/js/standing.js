// Where a player stands on an edition's leaderboard, or what is left before they are on it —
// in words, from the server's own reading of the leaderboard's rule (GET /api/players/{id}/
// standing, app/persistence/standing.py; docs/STATS.md).  Shown on the player's page, on /me
// and under the podium at the end of a match.  `standingText` is pure (tested under Node).
import { t } from "./i18n.js";
import { api, h } from "./dom.js";

/** One edition's standing (`{ ranked, rank, ranked_players, matches_left, opponents_left }`) in words. */
export function standingText(s) {
  if (s.ranked && s.rank) return t("players.standing.ranked", { rank: s.rank, of: s.ranked_players });
  const matches = s.matches_left ? t("players.standing.matches", { n: s.matches_left }) : null;
  const opponents = s.opponents_left ? t("players.standing.opponents", { n: s.opponents_left }) : null;
  if (matches && opponents) return t("players.standing.left_both", { matches, opponents });
  if (matches) return t("players.standing.left_matches", { matches });
  if (opponents) return t("players.standing.left_opponents", { opponents });
  return "";
}

/** The editions' standings as a list (the /me page): "Classic: ranked after …", each linking its leaderboard. */
export function standingList(standing, editions) {
  return h("ul", { class: "standing-list", "data-testid": "standing-list" }, editions.map((ed) => {
    const s = standing.editions[ed];
    return s ? h("li", { "data-testid": `standing-${ed}` },
      h("a", { href: `/leaderboard/${ed}`, text: t(`edition.${ed}`) }), ": ", standingText(s)) : null;
  }));
}

const settled = new Map(); // match id -> the promise of this browser's player's standing after it

/** This browser's player's standing once the server has counted `matchId` (a few seconds after its end). */
async function standingAfter(matchId) {
  let me;
  try { me = await api("GET", "/api/me"); } catch { return null; } // no player here: nothing to tell
  for (let tries = 0; tries < 20; tries++) {
    let standing = null;
    try {
      standing = await api("GET", `/api/players/${encodeURIComponent(me.id)}/standing`);
    } catch (err) {
      if (err.status !== 429) throw err; // players' reads are limited per address (a household shares one): ask again
    }
    if (standing && Object.values(standing.editions).some((s) => s.latest === matchId)) return standing;
    await new Promise((resolve) => { setTimeout(resolve, 1000); });
  }
  return null; // not counted for this player (say, a bot played their seat): nothing said rather than old news
}

/**
 * Under the podium: this browser's player's standing on the edition's leaderboard after the
 * match just played, with a link to how the ranking works.  Fills itself when the server has
 * counted the match; stays empty for a browser that is no player here.
 */
export function podiumStanding(edition, matchId) {
  const el = h("p", { class: "podium-standing", "data-testid": "podium-standing", "aria-live": "polite", hidden: true });
  if (!matchId) return el;
  if (!settled.has(matchId)) settled.set(matchId, standingAfter(matchId).catch(() => null));
  settled.get(matchId).then((standing) => {
    const s = standing && standing.editions[edition];
    const text = s ? standingText(s) : "";
    if (!text) return;
    el.append(t("players.standing.in", { edition: t(`edition.${edition}`), standing: text }), " ",
      h("a", { href: `/leaderboard/${edition}`, "data-testid": "podium-standing-how", text: t("players.standing.how") }));
    el.hidden = false;
  });
  return el;
}
