// What the players' pages draw (docs/STATS.md): stats cards per edition, the group's
// head-to-head table and the history list.  Names are untrusted: text only (dom.js).
import { currentLang, t } from "./i18n.js";
import { h } from "./dom.js";
import { avatar } from "./avatar.js";
import { standingText } from "./standing.js";

export const EDITIONS = ["classic", "mario_kart", "all_wild", "pocket_pizza"];
const FORMER = "a former player"; // how stored matches name a player who deleted themselves
const STATS = ["matches", "wins", "rounds_won", "points_per_round", "catches_made", "catches_suffered",
  "challenges_won", "longest_streak"];

/** A date as digits only: words (month names) would not follow the page's catalogue. */
export function day(iso) {
  if (!iso) return "";
  const lang = currentLang() === "xx" ? "en" : currentLang();
  return new Date(iso).toLocaleDateString(lang, { year: "numeric", month: "2-digit", day: "2-digit" });
}

export const shownName = (name) => (name === FORMER ? t("players.former") : name);

/** A player's tag (from their id, docs/STATS.md): shown beside a name that looks like another's. */
export const playerTag = (tag) => (tag ? h("span", { class: "player-tag", "data-testid": "player-tag", text: `#${tag}` }) : null);

/** A player as the pages show one: avatar, name, and the tag when ``row.lookalike`` (or ``always``). */
export function playerName(name, id, row = null, always = false) {
  const label = h("span", { class: "player-name", text: shownName(name) });
  const tag = row && (row.lookalike || always) ? playerTag(row.tag) : null;
  return id ? h("a", { class: "player-ref", href: `/players/${encodeURIComponent(id)}` }, avatar(name, { key: id }), label, tag)
    : h("span", { class: "player-ref" }, avatar(name), label);
}

function number(value) {
  return typeof value === "number" ? value.toLocaleString(currentLang() === "xx" ? "en" : currentLang()) : "—";
}

function signed(value) {
  const lang = currentLang() === "xx" ? "en" : currentLang();
  return value.toLocaleString(lang, { minimumFractionDigits: 2, maximumFractionDigits: 2, signDisplay: "always" });
}

/**
 * One card per edition played: the stats, the rating (μ − 3σ) once there is one, and where the
 * player stands on the leaderboard or what is left before they are on it (`standing`, standing.js).
 */
export function statCards(stats, standing = null) {
  const editions = EDITIONS.filter((ed) => stats[ed]);
  if (!editions.length) return h("p", { class: "muted", "data-testid": "no-stats", text: t("players.no_stats") });
  return h("div", { class: "stat-cards" }, editions.map((ed) => {
    const s = stats[ed];
    const rating = s.rating ? number(s.rating.ordinal) : t("players.unrated");
    return h("section", { class: "stat-card", "data-testid": `stats-${ed}` },
      h("h3", { text: t(`edition.${ed}`) }),
      h("dl", {}, STATS.map((key) => h("div", { class: "stat", "data-stat": key },
        h("dt", { text: t(`players.stat.${key}`) }), h("dd", { text: number(s[key]) }))),
      h("div", { class: "stat stat-rating", "data-stat": "rating" },
        h("dt", { text: t("players.stat.rating") }), h("dd", { text: rating }))),
      standing && standing.editions[ed] ? h("p", { class: "stat-standing", "data-testid": `standing-${ed}` },
        standingText(standing.editions[ed]), " ",
        h("a", { href: `/leaderboard/${ed}`, text: t("players.standing.how") })) : null);
  }));
}

/** The group's table: the cell of row A and column B says how often A finished ahead of B. */
export function groupTable(group, ownerName) {
  const people = group.players || [];
  if (people.length < 2) return h("p", { class: "muted", "data-testid": "group-empty", text: t("players.group_empty") });
  const cells = new Map((group.cells || []).map((c) => [`${c.row} ${c.col}`, c]));
  const head = h("tr", {}, h("td", {}), people.map((p) => h("th", { scope: "col" }, playerName(p.name, p.player, p))));
  const rows = people.map((row) => h("tr", { "data-testid": "group-row" }, h("th", { scope: "row" }, playerName(row.name, row.player, row)),
    people.map((col) => {
      const cell = cells.get(`${row.player} ${col.player}`);
      return h("td", { "data-testid": "group-cell", text: row.player === col.player ? "·"
        : cell ? t("players.group_cell", { ahead: cell.ahead, matches: cell.matches }) : "—" });
    })));
  return h("div", {},
    h("p", { class: "muted", text: t("players.group_help", { name: ownerName }) }),
    h("div", { class: "table-scroll" }, h("table", { class: "group-table", "data-testid": "group-table" },
      h("thead", {}, head), h("tbody", {}, rows))));
}

function line(m) {
  // Under team play (HR-26) places are the teams': "place 2 of 2", shared with the partner.
  const seats = m.opponents.length + 1;
  const teams = Boolean(m.house && m.house.team_play);
  const of = teams ? Math.ceil(seats / 2) : seats;
  const partner = teams ? (m.seat + seats / 2) % seats : null; // HR-26: opposite, won or lost together
  const house = Object.keys(m.house || {}).length;
  const facts = [
    h("span", { class: `history-place${m.won ? " place-won" : ""}`, text: m.won ? t("players.won") : t("players.place", { place: m.placement, of }) }),
    h("span", { text: t("players.points", { n: m.points }) }),
    typeof m.rating === "number" ? h("span", { text: t("players.rating_change", { change: signed(m.rating) }) }) : null,
    house ? h("span", { text: t("players.house", { n: house }) }) : null,
  ];
  return h("li", { class: "history-line", "data-testid": "history-line", "data-match": m.match || "" },
    h("div", { class: "history-head" }, h("strong", { text: t(`edition.${m.edition}`) }), h("span", { class: "muted", text: day(m.finished_at) })),
    h("div", { class: "history-facts" }, facts),
    h("div", { class: "history-against" }, t("players.against", { names: "" }).trim(), " ",
      m.opponents.map((o) => (o.seat === partner
        ? h("span", { class: "history-partner", "data-testid": "history-partner" }, playerName(o.name, o.player), " ",
          h("span", { class: "badge", text: t("team.partner") }))
        : playerName(o.name, o.player)))),
    // Why it did not count, or (a new player's first match, the same few opponents again) was not rated.
    m.reason ? h("p", { class: "muted", "data-testid": m.counted ? "not-rated" : "not-counted",
      text: t(`players.reason.${m.reason}`) }) : null,
    // A private room's match is linked for its own player only (the server leaves it out for others).
    m.match_url ? h("a", { class: "btn btn-small", href: m.match_url, "data-testid": "history-open", text: t("players.open_match") }) : null);
}

export function historyList(history) {
  if (!history.length) return h("p", { class: "muted", "data-testid": "no-history", text: t("players.no_history") });
  return h("ol", { class: "history-list" }, history.map(line));
}
