// A player's page: their stats and rating per edition, "our group" and their latest matches,
// from /api/players/{id} (docs/STATS.md).
import { loadCatalogue, t } from "../i18n.js";
import { api, clear, h, initLanguagePicker } from "../dom.js";
import { avatar } from "../avatar.js";
import { day, groupTable, historyList, playerTag, statCards } from "../players_view.js";

const root = document.getElementById("player-root");
const id = document.body.dataset.playerId;

async function show() {
  let page;
  let group;
  try {
    [page, group] = await Promise.all([api("GET", `/api/players/${encodeURIComponent(id)}`),
      api("GET", `/api/players/${encodeURIComponent(id)}/group`)]);
  } catch (err) {
    clear(root).append(h("section", { class: "panel" }, h("h1", { text: t("players.title") }),
      h("p", { "data-testid": "player-missing", text: err.message }), h("a", { class: "btn", href: "/", text: t("nav.home") })));
    root.setAttribute("aria-busy", "false");
    return;
  }
  const who = page.player;
  clear(root).append(
    h("section", { class: "panel" },
      h("h1", { class: "me-head" }, avatar(who.name, { key: who.id }), h("span", { "data-testid": "player-name", text: who.name }),
        playerTag(who.tag)), // always: the one thing a look-alike cannot copy
      who.since ? h("p", { class: "muted", text: t("players.since", { date: day(who.since) }) }) : null,
      h("h2", { text: t("players.stats") }), statCards(page.stats, page.standing)),
    h("section", { class: "panel", "data-testid": "group" }, h("h2", { text: t("players.group") }), groupTable(group, who.name)),
    h("section", { class: "panel", "data-testid": "history" }, h("h2", { text: t("players.history") }), historyList(page.history)));
  root.setAttribute("aria-busy", "false");
}

loadCatalogue().then(() => { initLanguagePicker(); show(); });
