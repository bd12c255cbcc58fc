// The home page's line about this browser's player: their name put in the name field, and
// links to their page, the leaderboard and the player page (docs/STATS.md).  Nothing shown
// when the server keeps no players.
import { t } from "./i18n.js";
import { api, h, storedName } from "./dom.js";

export async function showPlayerLine(main, nameInput) {
  let me = null;
  try { me = await api("GET", "/api/me"); } catch (err) { if (err.code === "no_players") return; }
  // The player's name, unless someone typed another meanwhile.
  const untouched = nameInput && (!nameInput.value.trim() || nameInput.value === storedName());
  if (me && untouched) nameInput.value = me.name;
  const links = me
    ? [h("span", { "data-testid": "playing-as", text: t("players.playing_as", { name: me.name }) }),
      h("a", { href: `/players/${encodeURIComponent(me.id)}`, "data-testid": "player-line-page", text: t("players.link.page") })]
    : [];
  main.append(h("nav", { class: "player-line", "data-testid": "player-line", "aria-label": t("players.link.me") }, links,
    h("a", { href: "/leaderboard", "data-testid": "player-line-board", text: t("players.link.board") }),
    h("a", { href: "/me", "data-testid": "player-line-me", text: t("players.link.me") })));
}
