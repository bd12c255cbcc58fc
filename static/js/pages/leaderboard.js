// An edition's leaderboard, from /api/leaderboard/{edition} (docs/STATS.md).
import { currentLang, loadCatalogue, t } from "../i18n.js";
import { api, clear, h, initLanguagePicker } from "../dom.js";
import { playerName } from "../players_view.js";

const root = document.getElementById("board-root");
const edition = document.body.dataset.edition;
const pageAsked = Math.max(1, Number.parseInt(new URLSearchParams(location.search).get("page") || "1", 10) || 1);

// This page's address with another page number (the language and anything else kept).
function pageHref(page) {
  const params = new URLSearchParams(location.search);
  if (page > 1) params.set("page", String(page)); else params.delete("page");
  const query = params.toString();
  return `${location.pathname}${query ? `?${query}` : ""}`;
}

// Previous / next, and where this page is in all of them: the board is served a page at a time.
function pager(board) {
  if (board.pages <= 1 && board.page === 1) return null;
  const link = (to, key, rel) => (to === null
    ? h("span", { class: "board-pager-off", "aria-disabled": "true", text: t(key) })
    : h("a", { href: pageHref(to), rel, "data-testid": `board-${rel}`, text: t(key) }));
  return h("nav", { class: "board-pager", "aria-label": t("players.board_nav"), "data-testid": "board-pager" },
    link(board.previous, "players.board_previous", "prev"),
    h("span", { class: "board-pager-where", "data-testid": "board-where",
      text: t("players.board_pages", { page: board.page, pages: board.pages, players: board.ranked_players }) }),
    link(board.next, "players.board_next", "next"));
}

async function show() {
  let board;
  try {
    board = await api("GET", `/api/leaderboard/${encodeURIComponent(edition)}?page=${pageAsked}`);
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
  const nav = pager(board);
  if (nav) root.append(nav);
  root.setAttribute("aria-busy", "false");
}

loadCatalogue().then(() => { initLanguagePicker(); show(); });
