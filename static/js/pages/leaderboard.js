// An edition's leaderboard, from /api/leaderboard/{edition} (docs/STATS.md).
import { currentLang, loadCatalogue, t } from "../i18n.js";
import { api, clear, h, initLanguagePicker } from "../dom.js";
import { playerName } from "../players_view.js";

const root = document.getElementById("board-root");
const edition = document.body.dataset.edition;

async function show() {
  let board;
  try {
    board = await api("GET", `/api/leaderboard/${encodeURIComponent(edition)}`);
  } catch (err) {
    clear(root).append(h("p", { "data-testid": "board-missing", text: err.message }));
    root.setAttribute("aria-busy", "false");
    return;
  }
  document.getElementById("board-rule").textContent = t("players.board_rule",
    { matches: board.min_matches, opponents: board.min_opponents });
  const lang = currentLang() === "xx" ? "en" : currentLang();
  const cols = ["rank", "player", "rating", "matches", "wins"];
  clear(root).append(board.players.length
    ? h("div", { class: "table-scroll" }, h("table", { class: "board-table", "data-testid": "board-table" },
      h("thead", {}, h("tr", {}, cols.map((c) => h("th", { scope: "col", class: `col-${c}`, text: t(`players.col.${c}`) })))),
      h("tbody", {}, board.players.map((row) => h("tr", { "data-testid": "board-row", "data-player": row.player },
        h("td", { class: "col-rank", text: String(row.rank) }), h("td", { class: "col-player" }, playerName(row.name, row.player, row)),
        h("td", { class: "col-rating", text: row.ordinal.toLocaleString(lang, { minimumFractionDigits: 2, maximumFractionDigits: 2 }) }),
        h("td", { class: "col-matches", text: String(row.matches) }), h("td", { class: "col-wins", text: String(row.wins) }))))))
    : h("p", { class: "muted", "data-testid": "board-empty", text: t("players.board_empty") }));
  root.setAttribute("aria-busy", "false");
}

loadCatalogue().then(() => { initLanguagePicker(); show(); });
